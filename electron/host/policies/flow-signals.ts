import type { FlowLabel } from '../../../shared/domain/flows.js';

/**
 * The words that mark a tool as a source of untrusted content, as touching sensitive local
 * data, or as a sink, read from its name, its description and its input schema's property
 * names. Tuned against the reference servers (everything, filesystem, memory) so that a tool
 * that only computes or reads the server's own data gets no label from its words alone.
 */

/** A signal: which label, and the phrase the reason shows. */
export interface Signal {
  label: FlowLabel;
  why: string;
  /** A sink only in that it fetches from the network (reads an address), not one that acts. */
  fetch?: true;
}

const FETCHES = 'makes network requests';

/** Name words (after splitting on `_`, `-`, `.`, spaces and camelCase) that make a tool a sink. */
const SINK_NAME_WORDS: Record<string, string> = {
  exec: 'runs commands',
  execute: 'runs commands',
  run: 'runs commands',
  shell: 'runs commands',
  bash: 'runs commands',
  cmd: 'runs commands',
  command: 'runs commands',
  spawn: 'runs commands',
  eval: 'runs commands',
  terminal: 'runs commands',
  write: 'writes or deletes',
  create: 'writes or deletes',
  add: 'writes or deletes',
  insert: 'writes or deletes',
  append: 'writes or deletes',
  save: 'writes or deletes',
  update: 'writes or deletes',
  edit: 'writes or deletes',
  modify: 'writes or deletes',
  patch: 'writes or deletes',
  set: 'writes or deletes',
  put: 'writes or deletes',
  delete: 'writes or deletes',
  remove: 'writes or deletes',
  rm: 'writes or deletes',
  drop: 'writes or deletes',
  move: 'writes or deletes',
  rename: 'writes or deletes',
  archive: 'writes or deletes',
  commit: 'writes or deletes',
  merge: 'writes or deletes',
  install: 'writes or deletes',
  uninstall: 'writes or deletes',
  deploy: 'writes or deletes',
  kill: 'writes or deletes',
  toggle: 'writes or deletes',
  send: 'sends messages',
  post: 'sends messages',
  publish: 'sends messages',
  reply: 'sends messages',
  forward: 'sends messages',
  share: 'sends messages',
  invite: 'sends messages',
  notify: 'sends messages',
  tweet: 'sends messages',
  submit: 'sends messages',
  transfer: 'sends messages',
  pay: 'sends messages',
  upload: 'sends data out',
  push: 'sends data out',
  webhook: 'sends data out',
  fetch: 'makes network requests',
  download: 'makes network requests',
  browse: 'makes network requests',
  navigate: 'makes network requests',
  scrape: 'makes network requests',
  crawl: 'makes network requests',
  curl: 'makes network requests',
  http: 'makes network requests',
};

/** Name words that make a tool a source: it reads what other people control. */
const SOURCE_NAME_WORDS = new Set([
  'email',
  'emails',
  'mail',
  'mails',
  'inbox',
  'message',
  'messages',
  'calendar',
  'calendars',
  'event',
  'events',
  'issue',
  'issues',
  'ticket',
  'tickets',
  'pr',
  'prs',
  'comment',
  'comments',
  'thread',
  'threads',
  'chat',
  'chats',
  'slack',
  'discord',
  'tweet',
  'tweets',
  'posts',
  'feed',
  'feeds',
  'rss',
  'news',
  'web',
  'webpage',
  'page',
  'pages',
  'url',
  'http',
  'fetch',
  'browse',
  'scrape',
  'crawl',
  'download',
  'notifications',
]);

/** Name words that make a tool sensitive: local files, secrets, credentials. */
const SENSITIVE_NAME_WORDS = new Set([
  'file',
  'files',
  'path',
  'paths',
  'dir',
  'directory',
  'directories',
  'folder',
  'folders',
  'fs',
  'disk',
  'env',
  'environment',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'password',
  'passwords',
  'passwd',
  'token',
  'tokens',
  'keychain',
  'ssh',
  'cookie',
  'cookies',
  'wallet',
  'vault',
]);

/** Input property names (lower-cased, `_`/`-` removed) and what they make the tool. */
const PROPERTY_SIGNALS: Record<string, Signal[]> = {
  command: [{ label: 'sink', why: 'runs commands (a "command" parameter)' }],
  cmd: [{ label: 'sink', why: 'runs commands (a "cmd" parameter)' }],
  commands: [{ label: 'sink', why: 'runs commands (a "commands" parameter)' }],
  script: [{ label: 'sink', why: 'runs commands (a "script" parameter)' }],
  shell: [{ label: 'sink', why: 'runs commands (a "shell" parameter)' }],
  argv: [{ label: 'sink', why: 'runs commands (an "argv" parameter)' }],
  url: [
    {
      label: 'sink',
      why: 'makes network requests to an address the model picks (a "url" parameter)',
      fetch: true,
    },
    { label: 'source', why: 'reads what an address the model picks returns (a "url" parameter)' },
  ],
  urls: [
    {
      label: 'sink',
      why: 'makes network requests to addresses the model picks (a "urls" parameter)',
      fetch: true,
    },
    { label: 'source', why: 'reads what addresses the model picks return (a "urls" parameter)' },
  ],
  href: [{ label: 'sink', why: 'makes network requests (an "href" parameter)', fetch: true }],
  endpoint: [{ label: 'sink', why: 'makes network requests (an "endpoint" parameter)' }],
  webhook: [{ label: 'sink', why: 'sends data out (a "webhook" parameter)' }],
  webhookurl: [{ label: 'sink', why: 'sends data out (a "webhook_url" parameter)' }],
  to: [{ label: 'sink', why: 'sends messages (a "to" parameter)' }],
  recipient: [{ label: 'sink', why: 'sends messages (a "recipient" parameter)' }],
  recipients: [{ label: 'sink', why: 'sends messages (a "recipients" parameter)' }],
  cc: [{ label: 'sink', why: 'sends messages (a "cc" parameter)' }],
  bcc: [{ label: 'sink', why: 'sends messages (a "bcc" parameter)' }],
  path: [{ label: 'sensitive', why: 'reads or writes local paths (a "path" parameter)' }],
  paths: [{ label: 'sensitive', why: 'reads or writes local paths (a "paths" parameter)' }],
  file: [{ label: 'sensitive', why: 'reads or writes local files (a "file" parameter)' }],
  files: [{ label: 'sensitive', why: 'reads or writes local files (a "files" parameter)' }],
  filename: [{ label: 'sensitive', why: 'reads or writes local files (a "filename" parameter)' }],
  filepath: [{ label: 'sensitive', why: 'reads or writes local files (a "file_path" parameter)' }],
  directory: [{ label: 'sensitive', why: 'reads or writes local folders (a "directory" parameter)' }],
  dir: [{ label: 'sensitive', why: 'reads or writes local folders (a "dir" parameter)' }],
  folder: [{ label: 'sensitive', why: 'reads or writes local folders (a "folder" parameter)' }],
  cwd: [{ label: 'sensitive', why: 'works in a local folder (a "cwd" parameter)' }],
};

/** Description phrases, each with the label it gives. */
const DESCRIPTION_SIGNALS: { re: RegExp; signal: Signal }[] = [
  {
    re: /\b(?:execut(?:e|es|ing)\s+(?:a\s+|the\s+|any\s+|arbitrary\s+)?(?:shell\s+)?(?:commands?|scripts?|programs?|code)|runs?\s+(?:a\s+|the\s+|any\s+|arbitrary\s+)?(?:shell\s+|terminal\s+)?(?:commands?|scripts?|programs?)|shell\s+commands?)\b/i,
    signal: { label: 'sink', why: 'its description says it runs commands' },
  },
  {
    re: /\bsends?\s+(?:an?\s+|the\s+)?(?:e-?mails?|messages?|notifications?|sms|texts?|invites?|invitations?)\b|\bposts?\s+(?:a\s+|the\s+)?(?:messages?|comments?|tweets?|replies)\b/i,
    signal: { label: 'sink', why: 'its description says it sends messages' },
  },
  {
    re: /\b(?:makes?|sends?|issues?)\s+(?:an?\s+)?(?:http|https|network|web|api)\s+requests?\b|\bwebhooks?\b/i,
    signal: { label: 'sink', why: 'its description says it makes network requests' },
  },
  {
    re: /\b(?:fetch(?:es)?|downloads?|retrieves?|reads?|gets?|lists?|searches?|scrapes?|browses?)\s+(?:\w+\s+){0,3}?(?:web\s*pages?|urls?|websites?|the\s+web|the\s+internet|e-?mails?|inbox(?:es)?|calendars?|calendar\s+events|issues|pull\s+requests|tweets|news|rss\s+feeds?|chat\s+messages|slack\s+messages)\b/i,
    signal: { label: 'source', why: 'its description says it reads content others control' },
  },
  {
    re: /\b(?:file\s*system|environment\s+variables?|secrets?|credentials?|passwords?|api\s+keys?|private\s+keys?|ssh\s+keys?|keychain|cookies)\b/i,
    signal: { label: 'sensitive', why: 'its description mentions local files, secrets or credentials' },
  },
];

/** A tool name's words: `readTextFile`, `read_text_file` and `read-text.file` all give read, text, file. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** What a tool's name says about it. */
export function nameSignals(name: string): Signal[] {
  const out: Signal[] = [];
  const words = nameWords(name);
  // "send_message" acts on a message; it does not read one: the topic word makes a source only
  // where the name says nothing about acting (fetching, the one verb that does both, aside).
  const acts = words.some((w) => Object.hasOwn(SINK_NAME_WORDS, w) && SINK_NAME_WORDS[w] !== FETCHES);
  for (const word of words) {
    const sink = Object.hasOwn(SINK_NAME_WORDS, word) ? SINK_NAME_WORDS[word] : undefined;
    if (sink)
      out.push({
        label: 'sink',
        why: `${sink} (its name says "${word}")`,
        ...(sink === FETCHES ? { fetch: true as const } : {}),
      });
    if (!acts && SOURCE_NAME_WORDS.has(word))
      out.push({ label: 'source', why: `reads content others control (its name says "${word}")` });
    if (SENSITIVE_NAME_WORDS.has(word))
      out.push({ label: 'sensitive', why: `touches local files or secrets (its name says "${word}")` });
  }
  return out;
}

/** What a tool's description says about it. */
export function descriptionSignals(description: string | undefined): Signal[] {
  if (!description) return [];
  // Descriptions are read up to a page: a label comes from what the tool says it does, up front.
  const text = description.slice(0, 4000);
  return DESCRIPTION_SIGNALS.filter((d) => d.re.test(text)).map((d) => d.signal);
}

/** What the top-level property names of a tool's input schema say about it. */
export function schemaSignals(inputSchema: unknown): Signal[] {
  const properties =
    inputSchema && typeof inputSchema === 'object'
      ? (inputSchema as { properties?: unknown }).properties
      : undefined;
  if (!properties || typeof properties !== 'object') return [];
  const out: Signal[] = [];
  for (const key of Object.keys(properties).slice(0, 200)) {
    const norm = key.toLowerCase().replace(/[_-]/g, '');
    if (Object.hasOwn(PROPERTY_SIGNALS, norm)) out.push(...PROPERTY_SIGNALS[norm]);
  }
  return out;
}
