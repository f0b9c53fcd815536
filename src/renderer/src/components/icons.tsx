// Small inline icons (stroke = currentColor) so every state reads in words and a shape, in both themes.
import type { SVGProps } from 'react';

type P = SVGProps<SVGSVGElement>;

function Svg(props: P) {
  return (
    <svg
      viewBox="0 0 16 16"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    />
  );
}

export const ClockIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="8" cy="8" r="6" />
    <path d="M8 4.8V8l2.2 1.4" />
  </Svg>
);
export const CheckIcon = (p: P) => (
  <Svg {...p}>
    <path d="M3.5 8.5l3 3 6-7" />
  </Svg>
);
export const DoubleCheckIcon = (p: P) => (
  <Svg {...p}>
    <path d="M1.5 8.5l3 3 6-7" />
    <path d="M7.5 11.5l6-7" />
  </Svg>
);
export const ReplyIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6.5 4L2.5 8l4 4" />
    <path d="M2.5 8h6.5a4.5 4.5 0 0 1 4.5 4.5V13" />
  </Svg>
);
export const WarningIcon = (p: P) => (
  <Svg {...p}>
    <path d="M8 2.2l6.2 11H1.8z" />
    <path d="M8 6.5v3M8 11.4v.1" />
  </Svg>
);
export const GearIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="8" cy="8" r="2.2" />
    <path d="M8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4" />
  </Svg>
);
export const FeedIcon = (p: P) => (
  <Svg {...p}>
    <path d="M2.5 4h11M2.5 8h11M2.5 12h7" />
  </Svg>
);
export const EyeIcon = (p: P) => (
  <Svg {...p}>
    <path d="M1.5 8s2.4-4.5 6.5-4.5S14.5 8 14.5 8s-2.4 4.5-6.5 4.5S1.5 8 1.5 8z" />
    <circle cx="8" cy="8" r="1.8" />
  </Svg>
);
export const SearchIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="7" cy="7" r="4.5" />
    <path d="M10.5 10.5l3.5 3.5" />
  </Svg>
);
export const ChevronDownIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 6l4 4 4-4" />
  </Svg>
);
export const ArrowDownIcon = (p: P) => (
  <Svg {...p}>
    <path d="M8 3v10M4 9l4 4 4-4" />
  </Svg>
);
export const SendIcon = (p: P) => (
  <Svg {...p}>
    <path d="M2 8l11.5-5.5L9 14l-1.8-4.6z" />
  </Svg>
);
export const BackIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10 3.5L5.5 8l4.5 4.5" />
  </Svg>
);
/** Taken out of the inbox by the member's process (not yet seen by its model). */
export const TrayOutIcon = (p: P) => (
  <Svg {...p}>
    <path d="M2.5 9.5v3.5h11V9.5" />
    <path d="M8 10V2.5M5 5.5l3-3 3 3" />
  </Svg>
);
/** Can never be delivered. */
export const BanIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="8" cy="8" r="6" />
    <path d="M3.8 12.2l8.4-8.4" />
  </Svg>
);
/** A tool call in flight. */
export const ToolIcon = (p: P) => (
  <Svg {...p}>
    <path d="M10.2 2.3a3.3 3.3 0 0 0-3.9 4.4L2.4 10.6a1.3 1.3 0 0 0 1.9 1.9l3.9-3.9a3.3 3.3 0 0 0 4.4-3.9l-2 2-1.6-.4-.4-1.6z" />
  </Svg>
);
/** Waiting on the human. */
export const HandIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="8" cy="8" r="6" />
    <path d="M8 4.8v3.6M8 10.9v.1" />
  </Svg>
);
export const MoonIcon = (p: P) => (
  <Svg {...p}>
    <path d="M13 9.6A5.5 5.5 0 0 1 6.4 3a5.5 5.5 0 1 0 6.6 6.6z" />
  </Svg>
);
export const PowerIcon = (p: P) => (
  <Svg {...p}>
    <path d="M8 2v5.5" />
    <path d="M4.6 4.3a5 5 0 1 0 6.8 0" />
  </Svg>
);
export const QuestionIcon = (p: P) => (
  <Svg {...p}>
    <circle cx="8" cy="8" r="6" />
    <path d="M6.3 6.3a1.8 1.8 0 1 1 2.4 1.7c-.5.2-.7.6-.7 1.1v.2M8 11.3v.1" />
  </Svg>
);
/** The task board. */
export const BoardIcon = (p: P) => (
  <Svg {...p}>
    <rect x="2" y="2.5" width="12" height="11" rx="1.5" />
    <path d="M6 2.5v11M10 2.5v11" />
  </Svg>
);
/** The needs-you queue. */
export const BellIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 11V7.5a4 4 0 0 1 8 0V11l1 1.5H3z" />
    <path d="M6.5 14h3" />
  </Svg>
);
/** A member's activity (its transcript as a timeline). */
export const PulseIcon = (p: P) => (
  <Svg {...p}>
    <path d="M1.5 8h3l1.5-4 3 8 1.5-4h4" />
  </Svg>
);
export const ChevronRightIcon = (p: P) => (
  <Svg {...p}>
    <path d="M6 4l4 4-4 4" />
  </Svg>
);
export const CloseIcon = (p: P) => (
  <Svg {...p}>
    <path d="M4 4l8 8M12 4l-8 8" />
  </Svg>
);
export const TerminalIcon = (p: P) => (
  <Svg {...p}>
    <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.5" />
    <path d="M4.5 6.5l2 1.75-2 1.75M8.5 10.5h3" />
  </Svg>
);
export const RocketIcon = (p: P) => (
  <Svg {...p}>
    <path d="M9.5 2.5c2.2-.6 3.6-.4 4 0 .4.4.6 1.8 0 4l-4.5 4.5-3.5-3.5z" />
    <path d="M5.5 7.5l-2.5.5-1 2 3 .5M8.5 10.5l-.5 2.5-2 1-.5-3" />
    <circle cx="10.5" cy="5.5" r="1" />
  </Svg>
);
/** Export: an arrow down into a tray. */
export const DownloadIcon = (p: P) => (
  <Svg {...p}>
    <path d="M8 2.5v7.5M4.8 7 8 10.2 11.2 7" />
    <path d="M2.5 11v1.5a1 1 0 0 0 1 1h9a1 1 0 0 0 1-1V11" />
  </Svg>
);
