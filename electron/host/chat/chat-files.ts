import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatFile } from '../../../shared/domain/chat.js';
import {
  chatFileKind,
  chatFileType,
  formatBytes,
  MAX_CHAT_FILE_BYTES,
  messageFilesProblem,
} from '../../../shared/domain/chat-files.js';
import { HostFailure } from '../util/errors.js';

/** Where the bytes of attached files live: kept by content, so a file attached twice is stored once. */
export interface ChatFileStore {
  /** Check and keep a file; throws `invalid_file` naming what is wrong with it. */
  put(name: string, declaredType: string, bytes: Buffer): Promise<ChatFile>;
  /** The bytes of a kept file; throws `file_not_found` when it is gone. */
  read(id: string): Promise<Buffer>;
  /** The description of a kept file, as `put` returned it (absent: never kept, or kept by an earlier run). */
  describe(id: string): ChatFile | undefined;
}

const ID = /^[0-9a-f]{64}$/;

/** The stored files a new message names (each once), checked against the per-message limits. */
export function filesFor(store: ChatFileStore, ids: readonly string[]): ChatFile[] {
  const files = [...new Set(ids)].map((id) => {
    const file = store.describe(id);
    if (!file)
      throw new HostFailure('file_not_found', 'an attached file is no longer stored: attach it again');
    return file;
  });
  const problem = messageFilesProblem(files.map((f) => f.size));
  if (problem) throw new HostFailure('invalid_file', problem);
  return files;
}

/** The bytes of the files `ids` names; one no longer stored is left out (the history names it as gone). */
export async function readFiles(store: ChatFileStore, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const entries = await Promise.all(
    ids.map((id) =>
      store.read(id).then(
        (bytes): [string, Buffer] | null => [id, bytes],
        () => null,
      ),
    ),
  );
  return new Map(entries.filter((e) => e !== null));
}

/** Checks a file's bytes against what it claims to be; the type it is sent as. */
export function checkChatFile(name: string, declaredType: string, bytes: Buffer): ChatFile {
  const invalid = (why: string) => new HostFailure('invalid_file', `"${name}" cannot be attached: ${why}`);
  const type = chatFileType(name, declaredType);
  if (!type) throw invalid('only images (PNG, JPEG, WebP), PDF and text files can go to the model');
  if (bytes.length === 0) throw invalid('the file is empty');
  if (bytes.length > MAX_CHAT_FILE_BYTES)
    throw invalid(
      `it is ${formatBytes(bytes.length)}; a file may be at most ${formatBytes(MAX_CHAT_FILE_BYTES)}`,
    );
  const kind = chatFileKind(type.mimeType);
  if (kind === 'image' && !looksLike(type.mimeType, bytes))
    throw invalid(`its contents are not a ${type.mimeType.slice(6).toUpperCase()} image`);
  if (kind === 'pdf' && bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw invalid('its contents are not a PDF document');
  if (kind === 'text' && !isUtf8Text(bytes)) throw invalid('it is not UTF-8 text');
  return {
    id: createHash('sha256').update(bytes).digest('hex'),
    name,
    mimeType: type.mimeType,
    size: bytes.length,
  };
}

function looksLike(mimeType: string, b: Buffer): boolean {
  switch (mimeType) {
    case 'image/png':
      return b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/jpeg':
      return b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
    case 'image/webp':
      return (
        b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'
      );
    default:
      return false;
  }
}

function isUtf8Text(b: Buffer): boolean {
  if (b.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

/** Files under `<dataDir>/chat-files/<sha256>`, each written whole before it is named. */
export class DiskChatFileStore implements ChatFileStore {
  private readonly known = new Map<string, ChatFile>();

  constructor(private readonly dir: string) {}

  async put(name: string, declaredType: string, bytes: Buffer): Promise<ChatFile> {
    const file = checkChatFile(name, declaredType, bytes);
    const path = join(this.dir, file.id);
    const present = await stat(path).then(
      (s) => s.size === bytes.length,
      () => false,
    );
    if (!present) {
      await mkdir(this.dir, { recursive: true });
      const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, path);
    }
    this.known.set(file.id, file);
    return file;
  }

  async read(id: string): Promise<Buffer> {
    if (!ID.test(id)) throw gone(id);
    return readFile(join(this.dir, id)).catch(() => {
      throw gone(id);
    });
  }

  describe(id: string): ChatFile | undefined {
    return this.known.get(id);
  }
}

/** Files in memory only (no data folder: CLI one-shots, tests). */
export class MemoryChatFileStore implements ChatFileStore {
  private readonly files = new Map<string, { file: ChatFile; bytes: Buffer }>();

  put(name: string, declaredType: string, bytes: Buffer): Promise<ChatFile> {
    const file = checkChatFile(name, declaredType, bytes);
    this.files.set(file.id, { file, bytes: Buffer.from(bytes) });
    return Promise.resolve(file);
  }

  read(id: string): Promise<Buffer> {
    const entry = this.files.get(id);
    return entry ? Promise.resolve(entry.bytes) : Promise.reject(gone(id));
  }

  describe(id: string): ChatFile | undefined {
    return this.files.get(id)?.file;
  }
}

function gone(id: string): HostFailure {
  return new HostFailure('file_not_found', `the attached file ${id.slice(0, 12)}… is no longer stored`);
}
