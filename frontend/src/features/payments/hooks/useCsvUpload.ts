import { useState } from "react";
import { toast } from "@/components/ui/toast";
import { errorSentence } from "@/lib/api";
import { count } from "@/lib/format";
import { parseCsv } from "../api/batch";
import type { ParseCsvAnswer } from "../api/types";
import { setUpload } from "../stores/paymentsStore";

/** PRODUCT.md section 9: only .csv files are accepted (by name: browsers disagree on a CSV's MIME type). */
export const ACCEPTED_EXTENSION = ".csv";

const isCsv = (file: File) => file.name.toLowerCase().endsWith(ACCEPTED_EXTENSION);

const emptyFile = () => toast({ title: "Empty CSV file", description: "The uploaded file contains no valid data", variant: "destructive" });

/**
 * Reads a chosen or dropped file and has the server parse it (row validity is the server's to
 * decide, PRODUCT.md section 5), with the spec's toasts for each way it can go wrong.
 */
export function useCsvUpload() {
  const [parsing, setParsing] = useState(false);

  async function upload(file: File): Promise<void> {
    if (!isCsv(file)) {
      toast({
        title: "Invalid file type",
        description: `'${file.name}' is not a CSV file. Please upload a ${ACCEPTED_EXTENSION} file.`,
        variant: "destructive",
      });
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch {
      toast({ title: "Error reading file", description: "Failed to read the uploaded file", variant: "destructive" });
      return;
    }
    if (text.replace(/^\uFEFF/, "").trim() === "") {
      emptyFile();
      return;
    }
    setParsing(true);
    let answer: ParseCsvAnswer;
    try {
      answer = await parseCsv(text);
    } catch (error) {
      toast({ title: "Failed to parse CSV", description: errorSentence(error, "Invalid CSV format"), variant: "destructive" });
      return;
    } finally {
      setParsing(false);
    }
    // The declaration rules this out (this server refuses a file with a 4xx); an answer that says otherwise is still not shown as a result.
    if (!answer.success || !answer.data) {
      toast({ title: "Failed to parse CSV", description: answer.error || "Invalid CSV format", variant: "destructive" });
      return;
    }
    if (answer.data.totalRows === 0) {
      emptyFile();
      return;
    }
    setUpload(file.name, answer.data);
    toast({
      title: "CSV file uploaded",
      description: `${count(answer.data.totalRows)} recipients loaded, ${count(answer.data.validRecipients.length)} valid`,
    });
  }

  return { upload, parsing };
}
