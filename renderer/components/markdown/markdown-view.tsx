import type { Element, ElementContent } from 'hast';
import Markdown, { defaultUrlTransform, type Components, type UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { checkLinkUrl, openExternalLink } from '../../lib/external-link.js';
import { CodeBlock } from './code-block.js';

/** Markdown images are shown only when inline (data:) raster images; nothing is fetched. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/;

/**
 * react-markdown's default transform already drops javascript: and other unsafe schemes;
 * on top of it, data: stays only for <img src>, where it is checked to be a raster image.
 */
const urlTransform: UrlTransform = (url, key, node) => {
  if (key === 'src' && node.tagName === 'img') return DATA_IMAGE.test(url) ? url : '';
  return defaultUrlTransform(url);
};

const components: Components = {
  a: ({ href, children }) => {
    const safe = href ? checkLinkUrl(href) : null;
    if (!safe) {
      // Not openable (relative, mailto:, stripped): keep the words, lose the link.
      return (
        <span className="md-dead-link" title={href ? `not opened: ${href}` : undefined}>
          {children}
        </span>
      );
    }
    return (
      <a
        href={safe}
        title={safe}
        target="_blank"
        rel="noopener noreferrer"
        onClick={(e) => {
          // Never let the renderer navigate itself; open through the checked path instead.
          e.preventDefault();
          openExternalLink(safe);
        }}
      >
        {children}
      </a>
    );
  },
  img: ({ src, alt }) =>
    typeof src === 'string' && DATA_IMAGE.test(src) ? (
      <img className="md-image" src={src} alt={alt ?? ''} />
    ) : (
      <span className="md-image-blocked muted" title="images from the web are not loaded">
        [image{alt ? `: ${alt}` : ''}]
      </span>
    ),
  pre: ({ node }) => {
    const code = node?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
    if (!code) return <pre>{node ? textOf(node) : ''}</pre>;
    return <CodeBlock code={textOf(code).replace(/\n$/, '')} language={languageOf(code)} />;
  },
};

/**
 * Markdown from a model or a tool, rendered sanitised: GitHub tables and lists, but raw
 * HTML is dropped (`skipHtml`, and no rehype-raw), links open only after a check, and
 * images only from inline data.
 */
export function MarkdownView({ text }: { text: string }) {
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={urlTransform} components={components}>
        {text}
      </Markdown>
    </div>
  );
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function languageOf(code: Element): string | null {
  const cls: unknown = code.properties.className;
  const list: unknown[] = Array.isArray(cls) ? cls : typeof cls === 'string' ? cls.split(' ') : [];
  for (const c of list) {
    if (typeof c === 'string' && c.startsWith('language-'))
      return c.slice('language-'.length).toLowerCase() || null;
  }
  return null;
}
