import { BlocklistForm } from "../components/BlocklistForm";
import { BlocklistTable } from "../components/BlocklistTable";
import { RolePageLayout } from "../components/RolePageLayout";

/** /blocklist: accounts blocked now, and the block/unblock form for blocklist-role holders. */
export default function BlocklistPage() {
  return (
    <RolePageLayout
      title="Blocklist Management"
      description="Blocked accounts cannot send USDX or be burned from."
      role="BLOCKLIST_ROLE"
      connectPurpose="Connect your wallet to block or unblock accounts."
      form={<BlocklistForm />}
      listTitle="Blocked Accounts"
      listDescription="Click an address to copy it."
      list={<BlocklistTable />}
    />
  );
}
