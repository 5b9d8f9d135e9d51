import { useSyncExternalStore } from 'react';
import { isApiError } from '../api/client.ts';

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
}

/** The titles of failed calls (spec §8), one spelling for every page. */
export const errorTitles = {
  generic: 'Erro',
  login: 'Erro no login',
  register: 'Erro no cadastro',
  updateProfile: 'Erro ao atualizar perfil',
  changePassword: 'Erro ao alterar senha',
  sendEmail: 'Erro ao enviar email',
  deleteAccount: 'Erro ao excluir conta',
  cancel: 'Erro ao cancelar',
  payment: 'Erro ao processar pagamento',
} as const;

/** What a failed call says when the server could not be reached. */
export const OFFLINE_MESSAGE = 'Não foi possível falar com o servidor. Verifique sua conexão e tente novamente.';

// One toast at a time: a new one replaces the one on screen.
let current: Toast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function show(next: Toast | null) {
  current = next;
  for (const listener of listeners) listener();
}

export function toast({
  title,
  description,
  variant = 'default',
}: Omit<Toast, 'id' | 'variant'> & Partial<Pick<Toast, 'variant'>>) {
  show({ id: nextId++, title, description, variant });
}

/** A failed call: the server's message, or `fallback` when the server said nothing (e.g. no connection). */
export function toastError(title: string, error: unknown, fallback = OFFLINE_MESSAGE) {
  toast({ title, description: isApiError(error) ? error.message : fallback, variant: 'destructive' });
}

export const dismissToast = () => show(null);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The toast on screen, for the shell's toast area. */
export const useCurrentToast = () =>
  useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
