import { Button } from '@ticketing/shared';
import { listError } from './event-form.ts';
import { RemoveButton } from './RemoveButton.tsx';

/** The end of a list the admin edits row by row: the message about the list as a whole, then the button that adds. */
export function ListEnd({
  errors,
  label,
  full = false,
  onAdd,
}: {
  /** The form's errors for the list, wherever the resolver put its own message. */
  errors: unknown;
  label: string;
  /** At the most rows the catalog takes. */
  full?: boolean;
  onAdd(): void;
}) {
  const problem = listError(errors);
  return (
    <>
      {problem && (
        <p className="field__error" role="alert">
          {problem}
        </p>
      )}
      <Button type="button" variant="outline" size="sm" disabled={full} onClick={onAdd}>
        {label}
      </Button>
    </>
  );
}

interface RowActionsProps {
  /** The row as its buttons name it: 'lote 2', 'tipo de ingresso 1'. */
  name: string;
  index: number;
  count: number;
  /** What a stored row sold or holds; undefined for a new one, which shows none. */
  taken: number | undefined;
  /** Why it may not be removed, if it may not. */
  refusal: string | undefined;
  onMove(to: number): void;
  onRemove(): void;
}

/** Below a row: what it took, and the buttons that move it up or down the list and remove it. */
export function RowActions({ name, index, count, taken, refusal, onMove, onRemove }: RowActionsProps) {
  return (
    <div className="wrap-row edit-list__actions">
      {taken !== undefined && (
        <p className="edit-list__taken">
          Vendidos ou reservados: <span className="numeric">{taken}</span>
        </p>
      )}
      <Button
        type="button"
        variant="ghost"
        size="sm"
        disabled={index === 0}
        aria-label={`Mover ${name} para cima`}
        onClick={() => onMove(index - 1)}
      >
        ↑
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        disabled={index === count - 1}
        aria-label={`Mover ${name} para baixo`}
        onClick={() => onMove(index + 1)}
      >
        ↓
      </Button>
      <RemoveButton label={`Remover ${name}`} refusal={refusal} onRemove={onRemove} />
    </div>
  );
}
