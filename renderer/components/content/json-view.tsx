/** Pretty JSON as React text (never HTML), for structured content and unknown blocks. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return (
    <pre className="json-view" data-testid={testId}>
      {text}
    </pre>
  );
}
