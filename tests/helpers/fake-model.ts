/**
 * The model side of the chat and sampling tests: the wire-exact fake Gemini for one test
 * file, closed at cleanup, and the host options that send a test host's model calls to it.
 */
import { startFakeGemini, type FakeGemini, type FakeGeminiOptions } from '../fixtures/fake-gemini.js';
import type { CleanupStack, TestHostOptions } from './host-harness.js';

/** Start the fake Gemini answering only to `apiKey`, closed at cleanup; without a script, tests queue turns. */
export async function startFakeModel(
  stack: CleanupStack,
  apiKey: string,
  script: FakeGeminiOptions['script'] = [],
): Promise<FakeGemini> {
  const fake = await startFakeGemini({ apiKey, script });
  stack.defer(() => fake.close());
  return fake;
}

/** Provider overrides that send a test host's model calls to `fake` with `apiKey`. */
export function fakeModelOverrides(
  fake: FakeGemini,
  apiKey: string,
): NonNullable<TestHostOptions['providerOverrides']> {
  return { geminiBaseUrl: fake.baseUrl, geminiApiKey: apiKey };
}
