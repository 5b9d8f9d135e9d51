import { Icon } from '@ticketing/shared';

// The back office's own icons, drawn on the grid and stroke of the shell's.
export const CopyIcon = () => (
  <Icon d="M5 15V5a2 2 0 0 1 2-2h10">
    <rect x="9" y="9" width="12" height="12" rx="2" />
  </Icon>
);
export const CheckIcon = () => <Icon d="m5 12 5 5 9-10" />;
export const FileIcon = () => <Icon d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5" />;
