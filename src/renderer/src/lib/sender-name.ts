// The Settings dialog's check of the sender name, so the user learns why a name is refused as
// they type. The host applies the same rules and has the last word.
// The rules are the shared ones (src/shared/sender-name.ts); the words are the dialog's.
import { DEFAULT_SENDER_NAME, MAX_SENDER_NAME, senderNameIssue } from '../../../shared/sender-name';

export { DEFAULT_SENDER_NAME, MAX_SENDER_NAME };

const ALLOWED = /^[A-Za-z0-9_-]$/;

/** Why `name` cannot be the sender name, in a sentence; undefined when it can. */
export function senderNameProblem(name: string): string | undefined {
  const issue = senderNameIssue(name);
  if (issue === 'empty') return 'Enter a sender name: current teams see your messages come from it.';
  if (issue === 'reserved') return `“${name}” is reserved: Claude rates messages from reserved names as forged.`;
  if (issue === 'too-long') return `At most ${MAX_SENDER_NAME} characters (this one has ${name.length}).`;
  if (issue === 'characters') {
    const bad = [...new Set([...name].filter((ch) => !ALLOWED.test(ch)))]
      .map((ch) => (ch === ' ' ? 'a space' : `“${ch}”`))
      .slice(0, 3)
      .join(', ');
    return `Only letters, digits, “-” and “_” (not ${bad}).`;
  }
  return undefined;
}
