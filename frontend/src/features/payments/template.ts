import { saveTextFile } from "@/lib/download";
import { toCsv } from "./api/batch";

/** PRODUCT.md section 9: the template's file name. */
export const TEMPLATE_FILE_NAME = "usdx_transfer_template.csv";

/** PRODUCT.md section 5: columns Name, Address, Amount, with the example amount 5. */
export const TEMPLATE_CSV = toCsv(
  ["Name", "Address", "Amount"],
  [
    ["Alice Example", "0x1111111111111111111111111111111111111111", "5"],
    ["Bob Example", "0x2222222222222222222222222222222222222222", "5"],
    ["Carol Example", "0x3333333333333333333333333333333333333333", "12.50"],
  ],
);

export const downloadTemplate = () => saveTextFile(`${TEMPLATE_CSV}\r\n`, TEMPLATE_FILE_NAME, "text/csv;charset=utf-8");
