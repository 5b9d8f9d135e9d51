export { api, ApiError, isApiError, type ApiOptions } from './api/client.ts';
export { downloadFile } from './api/download.ts';
export { createQueryClient, queryPath } from './api/query-client.ts';
export { initials, meQueryKey, startSession, useAuth, type Auth } from './auth.ts';
export { copyText } from './clipboard.ts';
export {
  claimDevice,
  DOOR_DATA_DB,
  doorKeys,
  forgetDeviceData,
  forgetIfSignedOut,
  UNSYNCED_READINGS_DB,
} from './device-data.ts';
export {
  formatBRL,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatShortDate,
  formatter,
  formatTime,
} from './format.ts';
export { birthDateMask, cnpjMask, cpfMask, phoneMask, type Mask } from './masks.ts';
export { orderStatusOf, paymentLabel, paymentMethodOf, statusOf } from './order-labels.ts';
export {
  bearer,
  clearToken,
  expireSession,
  getToken,
  hasSession,
  pendingCourtesyCode,
  savePendingCourtesyCode,
  setToken,
  signOut,
  storeRenewedToken,
  takePendingCourtesyCode,
} from './session.ts';
export { Badge, type BadgeTone } from './ui/Badge.tsx';
export { Button, buttonClass, type ButtonProps, type ButtonSize, type ButtonVariant } from './ui/Button.tsx';
export { Checkbox } from './ui/Checkbox.tsx';
export { CopyInput } from './ui/CopyInput.tsx';
export { cx } from './ui/cx.ts';
export { Page } from './ui/Page.tsx';
export { PhoneField } from './ui/PhoneField.tsx';
export type { PageAddress, PageHead, ServerPage } from './server-page.ts';
export { Pager } from './ui/Pager.tsx';
export { SearchField, searchInput } from './ui/SearchField.tsx';
export { SelectField, type SelectFieldProps } from './ui/SelectField.tsx';
export { Skeleton, SkeletonLines } from './ui/Skeleton.tsx';
export { Spinner } from './ui/Spinner.tsx';
export { TextField, type TextFieldProps } from './ui/TextField.tsx';
export { Field, FieldNotes, noteIds } from './ui/Field.tsx';
export { Icon } from './ui/Icon.tsx';
export { iconStroke } from './ui/icon-stroke.ts';
export { dismissToast, errorTitles, OFFLINE_MESSAGE, toast, toastError, type Toast } from './ui/toast.ts';
export { preloadToaster, Toaster } from './ui/Toaster.tsx';
export { useDebounced } from './useDebounced.ts';
export { useFailureToast } from './useFailureToast.ts';
export { useResetTicket } from './useResetTicket.ts';
