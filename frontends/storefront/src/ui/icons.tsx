import { Icon } from '@ticketing/shared';

// Line icons beside the event facts, each its own drawing on the same grid.
export const CalendarIcon = () => (
  <Icon d="M3 10h18M8 3v4M16 3v4">
    <rect x="3" y="5" width="18" height="16" rx="2" />
  </Icon>
);
export const ClockIcon = () => <Icon d="M12 7v5l3 2" circle={[12, 12, 9]} />;
export const PinIcon = () => (
  <Icon d="M12 21s-7-6.1-7-11.5a7 7 0 0 1 14 0C19 14.9 12 21 12 21Z" circle={[12, 9.5, 2.5]} />
);
export const SeatIcon = () => (
  <Icon d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14a6.5 6.5 0 0 1 3.5 6" circle={[9, 8, 3.5]} />
);
export const SearchIcon = () => <Icon d="m20 20-3.5-3.5" circle={[11, 11, 7]} />;
export const CheckIcon = () => <Icon d="m5 12.5 4.5 4.5L19 7.5" size={40} strokeWidth={2.5} />;
export const ArrowLeftIcon = () => <Icon d="M19 12H5M11 18l-6-6 6-6" size={18} />;
