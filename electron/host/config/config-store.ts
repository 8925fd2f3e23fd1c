import { readFile } from 'node:fs/promises';
import { SerialWriter } from '../util/atomic-write.js';
import { parseDocument, serialiseDocument, type ConfigDocument } from './config-document.js';

/** Where server entries live. */
export interface ConfigStore {
  readonly path: string;
  load(): Promise<ConfigDocument>;
  save(doc: ConfigDocument): Promise<void>;
  flush(): Promise<void>;
}

/** A config held only in memory (the conformance client, tests): nothing touches disk. */
export class MemoryConfigStore implements ConfigStore {
  readonly path = '(memory)';
  constructor(private doc: ConfigDocument = { entries: [], rest: {}, key: 'mcpServers' }) {}
  async load(): Promise<ConfigDocument> {
    return this.doc;
  }
  async save(doc: ConfigDocument): Promise<void> {
    this.doc = doc;
  }
  async flush(): Promise<void> {}
}

/** The server list as a JSON file in the `mcpServers` shape, written atomically. */
export class FileConfigStore implements ConfigStore {
  private readonly writer: SerialWriter;

  constructor(readonly path: string) {
    this.writer = new SerialWriter(path);
  }

  /** Read the file; a missing file is an empty document, a broken one is an error. */
  async load(): Promise<ConfigDocument> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { entries: [], rest: {}, key: 'mcpServers' };
      throw error;
    }
    if (text.trim() === '') return { entries: [], rest: {}, key: 'mcpServers' };
    return parseDocument(text);
  }

  /** Write atomically; concurrent saves land in call order. */
  save(doc: ConfigDocument): Promise<void> {
    return this.writer.write(serialiseDocument(doc));
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
