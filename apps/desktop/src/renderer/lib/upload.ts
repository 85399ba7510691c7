/**
 * Sending picked or dropped files to the backend in chunks (beginUpload + uploadChunk): the file is
 * read a slice at a time (Blob.slice, FileReader's base64 off the main thread), so neither the page
 * nor the backend ever holds it whole, and the page stays responsive. The next slice is read while
 * the current ones travel (a few at once). Cancel with the signal: the uploads begun are dropped on the backend
 * (their bytes deleted).
 */
import type { BonsaiApi } from "@bonsai/ipc";

export interface UploadProgress {
  /** the file being sent */
  name: string;
  fileIndex: number;
  fileCount: number;
  /** bytes sent of all files, and their total */
  sent: number;
  total: number;
}

/** A slice as base64, read by the browser (no string of the whole file, no JavaScript loop over bytes). */
export function readBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("the file could not be read"));
    reader.readAsDataURL(blob);
  });
}

/** chunks sent before the first answer is awaited */
const CHUNKS_IN_FLIGHT = 4;

export class UploadCancelled extends Error {
  constructor() {
    super("the upload was cancelled");
    this.name = "UploadCancelled";
  }
}

/**
 * Uploads the files one after the other; resolves with their upload ids (ready for
 * importSessions). On cancel or failure every upload begun is dropped and the error is rethrown.
 */
export async function uploadFiles(api: BonsaiApi, files: readonly File[], onProgress: (p: UploadProgress) => void, signal: AbortSignal): Promise<string[]> {
  const total = files.reduce((n, f) => n + f.size, 0);
  const ids: string[] = [];
  let sent = 0;
  try {
    for (const [fileIndex, file] of files.entries()) {
      const progress = () => onProgress({ name: file.name, fileIndex, fileCount: files.length, sent, total });
      progress();
      if (signal.aborted) throw new UploadCancelled();
      const { uploadId, chunkBytes } = await api.beginUpload({ name: file.name, size: file.size });
      ids.push(uploadId);
      const slice = (offset: number) => readBase64(file.slice(offset, Math.min(file.size, offset + chunkBytes)));
      // a few chunks travel at once (the WebSocket keeps their order; each names its offset)
      const inFlight: Promise<void>[] = [];
      const failed: { error?: unknown; yes: boolean } = { yes: false };
      let next = file.size > 0 ? slice(0) : null;
      for (let offset = 0; next !== null; offset += chunkBytes) {
        const data = await next;
        if (failed.yes) throw failed.error;
        if (signal.aborted) throw new UploadCancelled();
        next = offset + chunkBytes < file.size ? slice(offset + chunkBytes) : null;
        const bytes = Math.min(chunkBytes, file.size - offset);
        inFlight.push(
          api.uploadChunk({ uploadId, offset, data }).then(
            () => {
              sent += bytes;
              progress();
            },
            (error: unknown) => {
              if (!failed.yes) Object.assign(failed, { yes: true, error });
            },
          ),
        );
        if (inFlight.length >= CHUNKS_IN_FLIGHT) await inFlight.shift();
      }
      await Promise.all(inFlight);
      if (failed.yes) throw failed.error;
      if (signal.aborted) throw new UploadCancelled();
    }
    return ids;
  } catch (err) {
    await Promise.all(ids.map((uploadId) => api.cancelUpload({ uploadId }).catch(() => undefined)));
    throw err;
  }
}
