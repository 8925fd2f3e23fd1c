/**
 * RFC 6570 URI templates, as MCP resource templates use them ("file:///{path}",
 * "repo://{owner}/{repo}{?ref}"). Levels 1–3 are expanded; level-4 modifiers (`*`, `:n`)
 * are accepted and ignored, since a form field holds one plain string per variable.
 */

interface Operator {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const EXPRESSION = /\{([^{}]*)\}/g;

function split(body: string): { op: Operator; names: string[] } {
  const opChar = body.length && '+#./;?&'.includes(body[0]) ? body[0] : '';
  const names = body
    .slice(opChar.length)
    .split(',')
    .map((v) => v.replace(/(\*|:\d+)$/, '').trim())
    .filter(Boolean);
  return { op: OPERATORS[opChar], names };
}

/** The variable names in a template, each once, in order of appearance. */
export function templateVariables(template: string): string[] {
  const seen = new Set<string>();
  for (const m of template.matchAll(EXPRESSION)) for (const name of split(m[1]).names) seen.add(name);
  return [...seen];
}

function encode(value: string, allowReserved: boolean): string {
  if (allowReserved) return encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, '%$1');
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Expand a template; variables missing or empty in `values` are left out. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(EXPRESSION, (_m, body: string) => {
    const { op, names } = split(body);
    const parts: string[] = [];
    for (const name of names) {
      const value = values[name];
      if (value === undefined || value === '') continue;
      const encoded = encode(value, op.allowReserved);
      parts.push(op.named ? `${name}=${encoded}` : encoded);
    }
    return parts.length ? op.first + parts.join(op.sep) : '';
  });
}
