import type { LucideIcon, LucideProps } from 'lucide-react';
import {
  Activity,
  ArrowLeft,
  ArrowRight,
  Check,
  Download,
  FileDiff,
  FileText,
  Folder,
  Hexagon,
  Inbox,
  Menu,
  MessageSquare,
  PackageSearch,
  Pencil,
  Quote,
  Server,
  Settings,
  ShieldCheck,
  Square,
  Trash2,
  TriangleAlert,
  Wrench,
  X,
} from 'lucide-react';

/**
 * The app's icons by role. lucide-react is the one icon set: SVGs render the same on every
 * platform (emoji such as 🗑 showed as an empty box on Linux), follow `currentColor` in both
 * themes and scale with the text. Change a role here and every place that uses it follows.
 */
export const AppIcons = {
  brand: Hexagon,
  chat: MessageSquare,
  requests: Inbox,
  servers: Server,
  registry: PackageSearch,
  tools: Wrench,
  resources: FileText,
  prompts: Quote,
  folders: Folder,
  activity: Activity,
  attachment: FileText,
  rename: Pencil,
  remove: Trash2,
  close: X,
  stop: Square,
  download: Download,
  settings: Settings,
  permissions: ShieldCheck,
  check: Check,
  warning: TriangleAlert,
  /** A tool whose definition changed since it was approved. */
  changed: FileDiff,
  outgoing: ArrowRight,
  incoming: ArrowLeft,
  menu: Menu,
} satisfies Record<string, LucideIcon>;

/** A role in {@link AppIcons}, used as an icon's name. */
export type IconRole = keyof typeof AppIcons;

/**
 * One icon. Decorative (aria-hidden) by default, since it sits next to text or inside a
 * button that carries its own aria-label; pass `label` only when the icon alone carries
 * meaning.
 */
export function Icon({
  name,
  size = 16,
  label,
  className,
  ...rest
}: { name: IconRole; size?: number; label?: string } & Omit<LucideProps, 'ref' | 'role' | 'name'>) {
  const Glyph = AppIcons[name];
  return (
    <Glyph
      size={size}
      className={className ? `icon ${className}` : 'icon'}
      focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      {...rest}
    />
  );
}
