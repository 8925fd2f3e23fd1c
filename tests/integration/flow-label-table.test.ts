/**
 * The documented table of default flow labels (issue 23, docs/approvals-and-permissions.md) is
 * what the code computes for the real reference servers installed here: server-everything,
 * server-filesystem and server-memory are started, listed and labelled, and the table rendered
 * from that must be the page's.
 * Regenerate with `node --import tsx scripts/flow-label-table.ts --write`.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  flowLabelTable,
  labelReferenceServers,
  TABLE_END,
  TABLE_FILE,
  TABLE_START,
} from '../../scripts/flow-label-table.js';
import { REPO_ROOT } from '../helpers/host-harness.js';

test(
  'the documented flow label table matches the labels computed for the reference servers',
  { timeout: 120_000 },
  async () => {
    const audit = await labelReferenceServers();
    assert.ok(audit.checked > 30, `the three servers list their tools (${audit.checked})`);
    const page = await readFile(join(REPO_ROOT, TABLE_FILE), 'utf8');
    const start = page.indexOf(TABLE_START);
    const end = page.indexOf(TABLE_END);
    assert.ok(start >= 0 && end > start, `${TABLE_FILE} has the flow-labels markers`);
    const documented = page.slice(start + TABLE_START.length, end).trim();
    assert.equal(
      documented,
      await flowLabelTable(audit),
      `${TABLE_FILE} is out of date: run node --import tsx scripts/flow-label-table.ts --write`,
    );
  },
);
