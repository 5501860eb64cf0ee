import { Badge } from "@/components/ui/badge";
import type { ChunkStatus, JobStatus } from "../api/types";

const JOB: Record<JobStatus, { label: string; variant: "secondary" | "success" | "destructive" }> = {
  processing: { label: "Processing", variant: "secondary" },
  completed: { label: "Completed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
};

const CHUNK: Record<ChunkStatus, { label: string; variant: "outline" | "secondary" | "success" | "destructive" }> = {
  pending: { label: "Not sent", variant: "outline" },
  submitted: { label: "Submitted", variant: "secondary" },
  confirmed: { label: "Paid", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  // The job failed and its submit window is over: the server follows the chunk no more.
  closed: { label: "Closed", variant: "outline" },
};

export const JobStatusBadge = ({ status }: { status: JobStatus }) => <Badge variant={JOB[status].variant}>{JOB[status].label}</Badge>;

export const ChunkStatusBadge = ({ status }: { status: ChunkStatus }) => (
  <Badge variant={CHUNK[status].variant}>{CHUNK[status].label}</Badge>
);
