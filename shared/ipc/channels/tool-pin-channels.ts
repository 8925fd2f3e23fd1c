import { z } from 'zod';
import type { ToolChange } from '../../domain/tool-trust.js';
import { empty, serverId, typed } from './channel-kit.js';

/** Pinned tool definitions: the tools that changed since they were approved, and accepting a change. */
export const toolPinChannels = {
  /** Every changed tool of every configured server, with both versions for the diff. */
  'tools.changes': { request: empty, response: typed<ToolChange[]>() },
  /**
   * Accept a reviewed change: the new version becomes the tool's pin and its standing approvals
   * apply again (audited). `fingerprint` names the version the person reviewed: a tool that
   * changed again since is refused. False when there was nothing to accept.
   */
  'tools.acceptChange': {
    request: z
      .object({
        serverId,
        tool: z.string().min(1).max(300),
        fingerprint: z
          .string()
          .regex(/^[0-9a-f]{64}$/, 'not a fingerprint')
          .optional(),
      })
      .strict(),
    response: typed<{ accepted: boolean }>(),
  },
} as const;
