/** Saves `text` as a file through a temporary download link (templates, exports, the ABI). */
export function saveTextFile(text: string, fileName: string, type = "text/plain;charset=utf-8"): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns; free the blob once they have it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
