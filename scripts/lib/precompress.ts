/**
 * Brotli copies of the built scripts and style sheets (`.next/static/**\/*.{js,css}` → `*.br`), which
 * the portal's preload scripts/lib/static-brotli.cjs sends to browsers that accept Brotli
 * (docs/decisions/108). `npm start` runs this after a build and at every start (a copy that exists
 * and is newer than its file is kept), so the first page a browser opens is already served small.
 */
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return /\.(js|css)$/.test(e.name) ? [full] : [];
  });
}

/** Writes the missing or outdated copies; answers how many were written and their bytes before → after. */
export async function precompressStatic(root: string): Promise<{ written: number; before: number; after: number }> {
  const todo = files(path.join(root, ".next", "static")).filter((file) => {
    try {
      return fs.statSync(`${file}.br`).mtimeMs < fs.statSync(file).mtimeMs;
    } catch {
      return true;
    }
  });
  let before = 0;
  let after = 0;
  // zlib runs on libuv's thread pool: a few at a time, not the whole build at once.
  for (let i = 0; i < todo.length; i += 4) {
    await Promise.all(
      todo.slice(i, i + 4).map(async (file) => {
        const source = fs.readFileSync(file);
        const packed = await brotli(source, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        });
        // Written whole, then renamed: the portal never sends half a file.
        fs.writeFileSync(`${file}.br.tmp`, packed);
        fs.renameSync(`${file}.br.tmp`, `${file}.br`);
        before += source.length;
        after += packed.length;
      }),
    );
  }
  return { written: todo.length, before, after };
}
