import fs from "node:fs";
import { CodeFileError } from "./parse";

/**
 * Where an import's bytes come from, bounded while they stream (docs/decisions/086): an uploaded
 * request body (Settings) or a file on disk (the admin CLI). Text is decoded as UTF-8 chunk by chunk
 * (a character split across chunks is kept whole); the count stops the stream as soon as it passes
 * the limit, so an oversized file is refused without sitting in memory.
 */
const MiB = 1024 * 1024;
export const TERMINOLOGY_IMPORT_LIMITS = {
  /** Settings upload: under proxy.ts' 16 MiB buffer (lib/http/limits.ts), so never cut silently. */
  uploadBytes: 15 * MiB,
  /** The CLI reads the file itself: larger sets (CSV streams; a CodeSystem is parsed whole). */
  fileBytes: 200 * MiB,
} as const;

export class ImportTooLargeError extends Error {
  override name = "ImportTooLargeError";
  constructor(readonly limit: number) {
    super(`The file is larger than ${Math.round(limit / MiB)} MB.`);
  }
}

async function* decode(bytes: AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let total = 0;
  for await (const chunk of bytes) {
    total += chunk.byteLength;
    if (total > limit) throw new ImportTooLargeError(limit);
    yield decoder.decode(chunk, { stream: true });
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

async function* readerChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch {
        throw new CodeFileError("The upload was interrupted before the end of the file.");
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** A request body as text chunks, refused at once when Content-Length announces too much. */
export function chunksOfRequest(request: Request, limit: number = TERMINOLOGY_IMPORT_LIMITS.uploadBytes): AsyncIterable<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw new ImportTooLargeError(limit);
  return decode(request.body ? readerChunks(request.body) : (async function* () {})(), limit);
}

/** A file as text chunks (the CLI; the path was resolved where the command was typed). */
export function chunksOfFile(path: string, limit: number = TERMINOLOGY_IMPORT_LIMITS.fileBytes): AsyncIterable<string> {
  const size = fs.statSync(path).size;
  if (size > limit) throw new ImportTooLargeError(limit);
  return decode(fs.createReadStream(path, { highWaterMark: 256 * 1024 }), limit);
}
