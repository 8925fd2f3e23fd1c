/** Pretty JSON as React text (never HTML), for structured content and unknown blocks. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- it scrolls: the keyboard must reach it
    <pre className="json-view" tabIndex={0} data-testid={testId}>
      {text}
    </pre>
  );
}
