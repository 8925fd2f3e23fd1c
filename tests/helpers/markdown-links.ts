// Reads Markdown as GitHub renders it (remark with GFM) to find where its relative links point
// and which anchors its headings give, slugged by github-slugger, the algorithm GitHub uses.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import GithubSlugger from 'github-slugger';
import { toString } from 'mdast-util-to-string';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

/** One link, image or link definition, with the 1-based line it is on. */
export interface MarkdownLink {
  url: string;
  line: number;
}

/** What a Markdown file offers to others (anchors) and asks of them (links). */
export interface MarkdownFacts {
  anchors: Set<string>;
  links: MarkdownLink[];
}

const parser = unified().use(remarkParse).use(remarkGfm);
/** An explicit HTML anchor: `<a id="x">` or `<a name="x">`. */
const HTML_ANCHOR = /<a\s[^>]*\b(?:id|name)\s*=\s*"([^"]+)"/gi;

/** The anchors and links of one Markdown text. */
export function markdownFacts(text: string): MarkdownFacts {
  const tree = parser.parse(text);
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const links: MarkdownLink[] = [];
  visit(tree, (node) => {
    const line = node.position?.start.line ?? 0;
    if (node.type === 'heading') anchors.add(slugger.slug(toString(node)));
    else if (node.type === 'link' || node.type === 'image' || node.type === 'definition')
      links.push({ url: node.url, line });
    else if (node.type === 'html') for (const m of node.value.matchAll(HTML_ANCHOR)) anchors.add(m[1] ?? '');
  });
  return { anchors, links };
}

/** Folders a clone does not have until something is built or run: a link there is broken. */
const GENERATED = /^(out|dist|test-results|node_modules|\.tmp)(\/|$)/;
/** A link with a scheme (https:, mailto:, mcp-desk:…) or protocol-relative: not checked here. */
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/** GitHub's line anchors on a source file (#L10, #L10-L20). */
const LINE_ANCHOR = /^L\d+(-L\d+)?$/;

/**
 * The problems of every relative link in `files` (paths relative to `root`): a target that does
 * not exist in a clone, or an anchor its Markdown target has no heading for. Empty when all resolve.
 */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const facts = new Map<string, MarkdownFacts>();
  const factsOf = (file: string): MarkdownFacts => {
    let known = facts.get(file);
    if (!known) facts.set(file, (known = markdownFacts(readFileSync(join(root, file), 'utf8'))));
    return known;
  };
  const problems: string[] = [];
  for (const file of files) {
    for (const { url, line } of factsOf(file).links) {
      if (EXTERNAL.test(url)) continue;
      const at = `${file}:${line}: ${url}`;
      const hash = url.indexOf('#');
      const pathPart = decodeURI(hash < 0 ? url : url.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(url.slice(hash + 1));
      const target = pathPart
        ? normalize(pathPart.startsWith('/') ? pathPart.slice(1) : join(dirname(file), pathPart))
            .split(sep)
            .join('/')
        : file;
      if (target.startsWith('..')) problems.push(`${at}: points outside the repository`);
      else if (GENERATED.test(target)) problems.push(`${at}: ${target} is made by a build or a run`);
      else if (!existsSync(join(root, target))) problems.push(`${at}: ${target} does not exist`);
      else if (anchor === undefined || anchor === '') continue;
      else if (target.endsWith('.md')) {
        if (!factsOf(target).anchors.has(anchor)) problems.push(`${at}: ${target} has no heading #${anchor}`);
      } else if (statSync(join(root, target)).isDirectory() || !LINE_ANCHOR.test(anchor))
        problems.push(`${at}: #${anchor} is not an anchor of ${target}`);
    }
  }
  return problems;
}

/** Every `.md` file under `dir` (relative to `root`), sorted. */
export function markdownFilesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}
