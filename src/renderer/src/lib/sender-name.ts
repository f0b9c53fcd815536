// The Settings dialog's check of the sender name, so the user learns why a name is refused as
// they type. The host applies the same rules and has the last word.
import { isReservedSender } from './provenance';

export const DEFAULT_SENDER_NAME = 'teamdeck';
export const MAX_SENDER_NAME = 64;

const ALLOWED = /^[A-Za-z0-9_-]+$/;

/** Why `name` cannot be the sender name, in a sentence; undefined when it can. */
export function senderNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'Enter a sender name: current teams see your messages come from it.';
  if (isReservedSender(name)) return `“${name}” is reserved: Claude rates messages from reserved names as forged.`;
  if (name.length > MAX_SENDER_NAME) return `At most ${MAX_SENDER_NAME} characters (this one has ${name.length}).`;
  if (!ALLOWED.test(name)) {
    const bad = [...new Set([...name].filter((ch) => !ALLOWED.test(ch)))]
      .map((ch) => (ch === ' ' ? 'a space' : `“${ch}”`))
      .slice(0, 3)
      .join(', ');
    return `Only letters, digits, “-” and “_” (not ${bad}).`;
  }
  return undefined;
}
