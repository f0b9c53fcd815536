// Message text as markdown, with the markdown code (react-markdown, micromark, the sanitizer:
// about a fifth of the app's script) in a chunk of its own, fetched once the window has painted
// (App preloads it). Until it is there a message shows as the plain text it is, in the same box;
// plain text is what React renders from a string, never markup.
import { lazy, memo, Suspense } from 'react';
import type { MarkdownProps } from './Markdown';

const load = () => import('./Markdown');
const Real = lazy(() => load().then((m) => ({ default: m.Markdown })));

/** Fetches the markdown chunk ahead of the first message that needs it. */
export function preloadMarkdown(): void {
  void load().catch(() => {
    // Fetched again by the first message that needs it.
  });
}

/** What a message shows while the markdown chunk loads: its text, line breaks kept. */
export function PlainMessage({ text }: { text: string }) {
  return (
    <div className="md">
      <p className="whitespace-pre-wrap">{text}</p>
    </div>
  );
}

export const Markdown = memo(function Markdown(props: MarkdownProps) {
  return (
    <Suspense fallback={<PlainMessage text={props.text} />}>
      <Real {...props} />
    </Suspense>
  );
});
