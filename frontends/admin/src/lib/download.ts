import { useMutation } from '@tanstack/react-query';
import { downloadFile, toastError } from '@ticketing/shared';

/** 'Exportar CSV': the spreadsheet at `path`, and a toast when it cannot be had. */
export function useCsvExport(path: string, fallbackName: string) {
  return useMutation({
    mutationFn: () => downloadFile(path, fallbackName),
    onError: (error) => toastError('Erro ao exportar CSV', error),
  });
}
