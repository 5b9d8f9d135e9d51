import { useEffect } from 'react';
import { toastError } from './ui/toast.ts';

/** A read that failed: the destructive toast with the server's message, once per failure (the page also says so in place). */
export function useFailureToast(error: unknown, title: string) {
  useEffect(() => {
    if (error) toastError(title, error);
  }, [error, title]);
}
