import type { ReactNode } from "react";
import type { RoleName } from "@common/roles";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeading } from "./PageHeading";
import { RoleGatedForm } from "./RoleGatedForm";

interface RolePageLayoutProps {
  title: string;
  description: string;
  /** The role whose holders get the form; others see why not. */
  role: RoleName;
  /** What connecting a wallet is for, said to a visitor without one. */
  connectPurpose: string;
  form: ReactNode;
  listTitle: string;
  listDescription: string;
  list: ReactNode;
}

/** /roles and /blocklist: the page's heading, the form for the role's holders, and beside it the list that form changes. */
export function RolePageLayout({ title, description, role, connectPurpose, form, listTitle, listDescription, list }: RolePageLayoutProps) {
  return (
    <div>
      <PageHeading title={title} description={description} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <RoleGatedForm role={role} connectPurpose={connectPurpose}>
            {form}
          </RoleGatedForm>
        </div>
        <Card className="lg:col-span-3">
          <CardHeader>
            <CardTitle>{listTitle}</CardTitle>
            <CardDescription>{listDescription}</CardDescription>
          </CardHeader>
          <CardContent>{list}</CardContent>
        </Card>
      </div>
    </div>
  );
}
