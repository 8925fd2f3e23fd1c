/**
 * The one rule a tool approval card's answers come from (shared/domain/approval-choices.ts):
 * an ordinary card offers Allow once first; a flagged or changed tool's card offers Deny first,
 * "switch off for the model" next (not for an app-only tool) and never "always"; "for this
 * chat" only inside a conversation; "this view's calls" only when a view asked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { approvalChoices, cautionsOf, offersChoice } from '../../shared/domain/approval-choices.js';
import type { ToolApprovalRequest } from '../../shared/domain/chat.js';
import type { ToolChange, ToolWarning } from '../../shared/domain/tool-trust.js';

function card(extra: Partial<ToolApprovalRequest> = {}): ToolApprovalRequest {
  return {
    kind: 'tool-approval',
    id: 'r1',
    serverId: 's',
    tool: 't',
    args: {},
    reason: 'asks',
    createdAt: 0,
    expiresAt: 1,
    ...extra,
  };
}

const warning = { kind: 'model-instructions', reason: 'r', passages: [] } as unknown as ToolWarning;
const change = { serverId: 's', tool: 't' } as unknown as ToolChange;

test('an ordinary card: Allow once first; "for this chat" only in a chat; "this view\'s calls" only from a view', () => {
  assert.deepEqual(approvalChoices(card()), ['once', 'always', 'deny']);
  assert.deepEqual(approvalChoices(card({ conversationId: 'c' })), ['once', 'chat', 'always', 'deny']);
  assert.deepEqual(approvalChoices(card({ fromView: { tool: 'v', viewId: 'x' } })), [
    'once',
    'view',
    'always',
    'deny',
  ]);
  assert.deepEqual(cautionsOf(card()), []);
});

test('a flagged or changed tool: Deny first, then switch off, no "always"', () => {
  for (const extra of [{ warnings: [warning] }, { change }, { warnings: [warning], change }]) {
    const choices = approvalChoices(card({ conversationId: 'c', ...extra }));
    assert.deepEqual(choices, ['deny', 'switch-off', 'once', 'chat']);
    assert.ok(!offersChoice(card({ conversationId: 'c', ...extra }), 'always'));
  }
  assert.deepEqual(cautionsOf(card({ warnings: [warning], change })), ['warnings', 'changed']);
  const appOnly = card({ change, appOnly: true, fromView: { tool: 'v', viewId: 'x' } });
  assert.deepEqual(
    approvalChoices(appOnly),
    ['deny', 'once', 'view'],
    'the model never sees an app-only tool',
  );
});
