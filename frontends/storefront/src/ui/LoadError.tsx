import { Button, isApiError } from '@ticketing/shared';
import './status.css';

/** A read that failed: the server's message (or a connection hint) and a way to try again. */
export function LoadError({ title, error, onRetry }: { title: string; error: unknown; onRetry(): void }) {
  return (
    <div className="status-message status-message--error" role="alert">
      <p className="status-message__title">{title}</p>
      <p className="status-message__text">
        {isApiError(error) ? error.message : 'Verifique sua conexão com a internet e tente novamente.'}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Tentar novamente
      </Button>
    </div>
  );
}
