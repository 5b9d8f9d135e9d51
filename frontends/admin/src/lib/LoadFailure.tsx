import { Button, isApiError } from '@ticketing/shared';
import './admin.css';

interface LoadFailureProps {
  /** What could not be loaded ("Não foi possível carregar os eventos."). */
  message: string;
  /** When given, the server's own words replace `message` wherever it said why. */
  error?: unknown;
  onRetry(): void;
}

/** A list or report that did not load: why, and a way to ask again. */
export function LoadFailure({ message, error, onRetry }: LoadFailureProps) {
  return (
    <div className="list-message" role="alert">
      <p>{error !== undefined && isApiError(error) ? error.message : message}</p>
      <Button variant="outline" onClick={onRetry}>
        Tentar novamente
      </Button>
    </div>
  );
}
