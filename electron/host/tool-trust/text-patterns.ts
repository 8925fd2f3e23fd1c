import type { ToolWarningKind } from '../../../shared/domain/tool-trust.js';

/**
 * The phrases that mark text written for the model rather than for a person, requests for
 * secrets, and ways of sending data away. Each is matched (case-insensitive) over folded text
 * (see fold-text.ts). They were tuned against the descriptions of the reference servers and a
 * corpus of real and crafted descriptions (tests/fixtures/tool-poisoning-corpus.ts): a phrase a
 * real server uses in good faith ("Only works within allowed directories", "IMPORTANT: ...",
 * "The model should NOT call this tool directly") must not match.
 */
export interface TextPattern {
  kind: ToolWarningKind;
  re: RegExp;
  detail: string;
  /** Also checked in tool results (instructions injected into data), not only in definitions. */
  inResults: boolean;
}

const p = (kind: ToolWarningKind, re: RegExp, detail: string, inResults = true): TextPattern => ({
  kind,
  re: new RegExp(re.source, 'giu'),
  detail,
  inResults,
});

/** A pattern written in pieces (one alternation group a line), joined into one RegExp. */
const rx = (parts: string[], flags = ''): RegExp => new RegExp(parts.join(''), flags);

/** Words that end a clause: windows between a verb and its object never cross them. */
const W = String.raw`[^.;!?\n]`;

const SECRET_TARGETS =
  String.raw`(?:api[\s_-]?keys?|credentials?|secrets?|passwords?|passphrases?|private[\s_-]?keys?|` +
  String.raw`access[\s_-]?tokens?|auth(?:entication)?[\s_-]?tokens?|bearer\s+tokens?|` +
  String.raw`session\s+cookies?|cookies|seed\s+phrases?|recovery\s+phrases?)`;
const TAKE_VERBS =
  String.raw`(?:read|cat|open|collect|gather|extract|include|send|copy|upload|dump|` +
  String.raw`exfiltrate|leak|harvest|grab|steal|print|output|attach|append|forward|` +
  String.raw`look\s+up|fetch)`;
const SEND_VERBS =
  String.raw`(?:send|post|upload|forward|transmit|report|submit|mail|e-?mail|exfiltrate|` +
  String.raw`leak|copy|sync|push|beacon|relay|deliver)`;

/** Text addressed to the model: orders, secrecy from the user, prompt-format tags. */
const MODEL_INSTRUCTIONS: TextPattern[] = [
  p(
    'model-instructions',
    rx([
      String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|`,
      String.raw`your\s+|its\s+)?(?:previous|prior|above|earlier|preceding|original|existing|`,
      String.raw`system|safety)\s+(?:instructions?|prompts?|rules|directions|guidelines|`,
      String.raw`messages|policies)`,
    ]),
    'tells the model to ignore its instructions',
  ),
  p(
    'model-instructions',
    rx([
      String.raw`\b(?:do\s+not|don['’]?t|never|must\s+not|should\s+not|shouldn['’]?t)\s+(?:ever\s+)?(?:tell|`,
      String.raw`inform|notify|alert|warn|ask|show|let)\s+(?:this\s+|it\s+|that\s+|anything\s+)?(?:to\s+)?the\s+user`,
    ]),
    'asks the model to keep something from the user',
  ),
  p(
    'model-instructions',
    rx([
      String.raw`\b(?:do\s+not|don['’]?t|never|must\s+not)\s+(?:ever\s+)?(?:mention|reveal|`,
      String.raw`disclose|report|display|explain)\s+(?:this|that|these|it|any\s+of\s+this|`,
      String.raw`the\s+(?:above|following|instructions?|note))\b`,
    ]),
    'asks the model to keep something quiet',
  ),
  p(
    'model-instructions',
    /\bwithout\s+(?:telling|informing|notifying|asking|alerting|warning|showing)\s+(?:the\s+)?user/,
    'asks the model to act without telling the user',
  ),
  p(
    'model-instructions',
    /\b(?:the\s+)?user\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|see|notice|be\s+told|find\s+out)/,
    'asks the model to keep something from the user',
  ),
  p(
    'model-instructions',
    new RegExp(String.raw`\b(?:keep|hide)\b${W}{0,40}\bfrom\s+the\s+user`),
    'asks the model to hide something from the user',
  ),
  p(
    'model-instructions',
    rx([
      String.raw`\bbefore\s+(?:using|calling|invoking|running|executing)\s+(?:this|any|`,
      String.raw`the|other|each)\s+(?:\w+\s+)?tools?\b,?\s+(?:you\s+|the\s+(?:model|assistant|`,
      String.raw`ai)\s+)?(?:must|always|first|need\s+to|have\s+to|should|are\s+required|`,
      String.raw`read|open|send|pass|include|fetch|collect)\b`,
    ]),
    'sets conditions the model must meet before using tools',
  ),
  p(
    'model-instructions',
    rx([
      String.raw`<\s*\/?\s*(?:important|system|instructions?|secret|hidden|admin|assistant|`,
      String.raw`context|override|prompt|sys|thinking|note_to_(?:ai|model|assistant))\b[^<>]{0,40}>`,
    ]),
    'wraps text in tags meant for the model',
  ),
  p(
    'model-instructions',
    /<\|(?:im_start|im_end|system|user|assistant|endoftext)\|>|\[\/?(?:INST|SYSTEM)\]/,
    'contains chat-format control tokens',
  ),
  p(
    'model-instructions',
    /\bsystem\s+prompt\b|\b(?:reveal|print|repeat|output|leak)\s+(?:your|the)\s+(?:instructions|prompt|rules)\b/,
    'talks about the model’s system prompt or instructions',
  ),
  p(
    'model-instructions',
    /\byou\s+are\s+now\s+(?:a|an|in|the)\b|\bnew\s+instructions?\s*:|\bfrom\s+now\s+on,?\s+(?:you|always|never)\b/,
    'tries to give the model a new role or new instructions',
  ),
  p(
    'model-instructions',
    /\b(?:when|whenever|once|if)\s+this\s+tool\s+is\s+(?:available|present|loaded|installed|enabled|connected)/,
    'tries to change what the model does while this tool is around',
  ),
  p(
    'model-instructions',
    rx([
      String.raw`\b(?:secretly|covertly|quietly|silently|discreetly)\s+(?:send|read|include|`,
      String.raw`add|append|call|upload|forward|copy|pass|attach|collect|run|execute|invoke)\b`,
    ]),
    'asks the model to do something secretly',
  ),
  p(
    'model-instructions',
    rx([
      String.raw`\b(?:as\s+an?\s+(?:ai|assistant|language\s+model)|the\s+(?:assistant|ai|`,
      String.raw`llm|model)\s+(?:must|should)\s+(?:always|also|secretly|first|immediately))\b`,
    ]),
    'gives the model orders',
  ),
];

const SECRET_FILES: [source: string, detail: string][] = [
  [String.raw`(?:^|[^\w.])(?:~|\$HOME|%USERPROFILE%)?[\\/]?\.ssh(?:[\\/]|\b)`, 'refers to SSH keys (.ssh)'],
  [String.raw`\bid_(?:rsa|dsa|ecdsa|ed25519)\b`, 'refers to a private SSH key file'],
  [
    String.raw`(?:^|[\s'"\x60(\\/@=:])\.env(?:\.[\w-]+)?(?![\w-])`,
    'refers to a .env file (where apps keep their secrets)',
  ],
  [
    String.raw`\b(?:mcp\.json|claude_desktop_config\.json|mcp_config\.json|mcp-servers\.json|` +
      String.raw`mcp_settings\.json)\b|\.cursor[\\/]mcp`,
    'refers to an MCP host’s config file (which holds other servers’ keys)',
  ],
  [
    String.raw`\.aws[\\/]credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|` +
      String.raw`\.pgpass\b|\.docker[\\/]config\.json|\.kube[\\/]config|\/etc\/(?:passwd|` +
      String.raw`shadow)\b|\bwallet\.dat\b|\.gnupg\b|\blogin\.keychain\b`,
    'refers to a credentials file',
  ],
];

/**
 * Secrets: key files, credential stores, the host's own config, and "read the user's keys". In
 * a definition naming such a file is enough; in a result (a directory listing shows `.env`) only
 * an order to read or send one counts.
 */
const SECRET_ACCESS: TextPattern[] = [
  ...SECRET_FILES.map(([source, detail]) => p('secret-access', new RegExp(source), detail, false)),
  p(
    'secret-access',
    new RegExp(
      String.raw`\b${TAKE_VERBS}\b${W}{0,40}(?:${SECRET_FILES.map(([source]) => source).join('|')})`,
    ),
    'asks to read or send a key or credentials file',
  ),
  p(
    'secret-access',
    new RegExp(
      String.raw`\b${TAKE_VERBS}\b${W}{0,30}\b(?:the\s+user['’]?s?|users['’]|user['’]s|` +
        String.raw`your|all|any|every|their|stored|saved|local|existing)\s+(?:\w+\s+){0,2}${SECRET_TARGETS}\b`,
    ),
    'asks for keys, passwords or tokens',
  ),
  p(
    'secret-access',
    new RegExp(
      String.raw`\b(?:include|send|append|upload|copy|forward|pass|attach|dump)\b${W}{0,40}\benvironment\s+variables\b`,
    ),
    'asks to pass environment variables along (they often hold keys)',
  ),
];

/** Sending data away: to an address, via curl/wget, base64 in a URL. */
const EXFILTRATION: TextPattern[] = [
  p(
    'exfiltration',
    new RegExp(
      String.raw`\b${SEND_VERBS}\b${W}{0,80}?\bto\s+(?:https?:\/\/|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|` +
        String.raw`the\s+(?:following|remote|external|below|given)\s+(?:server|endpoint|url|` +
        String.raw`address|webhook|host))`,
    ),
    'asks to send data to an outside address',
  ),
  p(
    'exfiltration',
    new RegExp(
      String.raw`\b(?:always|also)\s+(?:bcc|cc|copy|send|include|add|forward)\b${W}{0,60}?[\w.+-]+@[\w-]+(?:\.[\w-]+)+`,
    ),
    'asks to copy messages to an address',
  ),
  p(
    'exfiltration',
    rx([
      String.raw`\b(?:curl|wget)\s+(?:-{1,2}[\w-]+(?:\s+(?!https?:)[^\s-]\S*)?\s+)*['"]?(?:https?:\/\/|`,
      String.raw`\$|\{)|\|\s*(?:curl|wget|nc|netcat|bash|sh)\b|\b(?:nc|netcat)\s+(?:-\w+\s+)*\d{1,3}(?:\.\d{1,3}){3}`,
    ]),
    'contains a command that sends data over the network',
  ),
  p(
    'exfiltration',
    /\bInvoke-(?:WebRequest|RestMethod)\b|\bfetch\(\s*['"`]https?:/,
    'contains a command that sends data over the network',
  ),
  p(
    'exfiltration',
    new RegExp(
      String.raw`\bbase-?64\b${W}{0,80}\b(?:append|add|attach|embed|include|put|insert|` +
        String.raw`pass|place|encode)\w*\b${W}{0,40}\b(?:url|query|link|request|param(?:eter)?s?|` +
        String.raw`href|src|image)\b`,
    ),
    'asks to encode data and put it into a link or request',
  ),
  p(
    'exfiltration',
    new RegExp(
      String.raw`\b(?:encode|convert)\b${W}{0,40}\b(?:as|to|in|with|into)\s+base-?64\b${W}{0,60}\b(?:append|` +
        String.raw`add|attach|embed|include|put|insert|send|pass|place|url|query|param(?:eter)?)\b`,
    ),
    'asks to encode data and put it into a link or request',
  ),
];

/** Every text pattern, in the order their warnings are listed. */
export const TEXT_PATTERNS: readonly TextPattern[] = [
  ...MODEL_INSTRUCTIONS,
  ...SECRET_ACCESS,
  ...EXFILTRATION,
];

/** A URL anywhere in text (checked one by one: a plain documentation link is fine). */
export const URL_RE = /\bhttps?:\/\/[^\s"'<>`)\]}]+/giu;

/** Services that exist to capture requests: nothing a real tool sends its users' data to. */
const CAPTURE_HOSTS = rx(
  [
    String.raw`(?:^|\.)(?:webhook\.site|requestbin\.\w+|pipedream\.net|ngrok(?:-free)?\.(?:io|`,
    String.raw`app|dev)|burpcollaborator\.net|oastify\.com|interact\.sh|oast\.\w+|beeceptor\.com|`,
    String.raw`hookbin\.com|canarytokens\.com|requestcatcher\.com|pastebin\.com|transfer\.sh|`,
    String.raw`trycloudflare\.com|serveo\.net|localtunnel\.me|loca\.lt)$`,
  ],
  'i',
);

/** Parameter names that carry what is being smuggled out. */
const DATA_PARAMS = rx(
  [
    String.raw`^(?:data|payload|content|contents|secret|secrets|token|key|keys|file|files|`,
    String.raw`env|creds?|credentials|password|pw|d|c|x|exfil|leak|stolen|history|conversation|`,
    String.raw`chat)$`,
  ],
  'i',
);

/** What a `{placeholder}` in a query string stands for when it smuggles something out. */
const DATA_SLOTS = rx(
  [
    String.raw`conversation|history|secret|key|token|password|credential|env|content|`,
    String.raw`file|data|chat|message|ssh|cookie|session|prompt`,
  ],
  'i',
);

/** Why a URL looks like a way to send data out, or null for an ordinary link. */
export function suspiciousUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/[.,;:!?]+$/, ''));
  } catch {
    return null;
  }
  if (CAPTURE_HOSTS.test(parsed.hostname)) return `links to a request-capture service (${parsed.hostname})`;
  const ip = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(parsed.hostname);
  if (ip && !/^(?:127\.|10\.|192\.168\.|0\.)/.test(parsed.hostname))
    return `links to a bare IP address (${parsed.hostname})`;
  for (const [name, value] of parsed.searchParams) {
    // `?q=<place>` is how links are documented; `?data={conversation}` is how data leaves.
    const slot = /^(?:\{+|<|\$\{?|\[)\s*([\w.-]*)/.exec(value)?.[1];
    if (slot !== undefined && (DATA_PARAMS.test(name) || DATA_SLOTS.test(slot)))
      return 'builds a link that carries data in its query string';
    if (DATA_PARAMS.test(name) && (value === '' || value === '...' || value === '…'))
      return 'builds a link that carries data in its query string';
  }
  return null;
}
