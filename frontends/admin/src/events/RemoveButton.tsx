import { useId } from 'react';
import { Button } from '@ticketing/shared';

/**
 * 'Remover', or, when it may not be removed, the button disabled with the reason as its tooltip and its
 * description (a disabled button shows no tooltip of its own in every browser: the wrapper carries it).
 */
export function RemoveButton({ label, refusal, onRemove }: { label: string; refusal?: string; onRemove(): void }) {
  const reason = useId();
  return (
    <span className="remove-button" title={refusal}>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        disabled={refusal !== undefined}
        aria-label={label}
        aria-describedby={refusal ? reason : undefined}
        onClick={onRemove}
      >
        Remover
      </Button>
      {refusal && (
        <span id={reason} className="visually-hidden">
          {refusal}
        </span>
      )}
    </span>
  );
}
