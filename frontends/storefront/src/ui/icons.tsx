import { iconStroke } from '@ticketing/shared';

/** Line icons beside the event facts, each its own drawing on the same grid; decorative, the text next to them says the same. */
const stroke = { width: 20, height: 20, viewBox: '0 0 24 24', 'aria-hidden': true, ...iconStroke } as const;

export const CalendarIcon = () => (
  <svg {...stroke}>
    <rect x="3" y="5" width="18" height="16" rx="2" />
    <path d="M3 10h18M8 3v4M16 3v4" />
  </svg>
);

export const ClockIcon = () => (
  <svg {...stroke}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </svg>
);

export const PinIcon = () => (
  <svg {...stroke}>
    <path d="M12 21s-7-6.1-7-11.5a7 7 0 0 1 14 0C19 14.9 12 21 12 21Z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </svg>
);

export const SeatIcon = () => (
  <svg {...stroke}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" />
  </svg>
);

export const SearchIcon = () => (
  <svg {...stroke}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </svg>
);

export const CheckIcon = () => (
  <svg {...stroke} width={40} height={40} strokeWidth={2.5}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </svg>
);

export const ArrowLeftIcon = () => (
  <svg {...stroke} width={18} height={18}>
    <path d="M19 12H5M11 18l-6-6 6-6" />
  </svg>
);
