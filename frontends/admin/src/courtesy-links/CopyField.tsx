import { useEffect, useState } from 'react';
import { Button, CopyInput, copyText, cx, toast } from '@ticketing/shared';
import { CheckIcon, CopyIcon } from '../lib/icons.tsx';

/** How long the copy button shows its check mark (spec §9). */
const COPIED_MS = 3000;

/** A read-only link with a button that copies it; the button shows a check mark for 3 s after copying. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const [copiedAt, setCopiedAt] = useState(0);
  useEffect(() => {
    if (!copiedAt) return;
    const timer = window.setTimeout(() => setCopiedAt(0), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copiedAt]);

  async function copy() {
    if (await copyText(value)) {
      setCopiedAt(Date.now());
      toast({ title: 'Link copiado!', description: 'O link foi copiado para a área de transferência' });
    } else {
      toast({ title: 'Erro ao copiar', description: 'Não foi possível copiar o link', variant: 'destructive' });
    }
  }

  const copied = copiedAt > 0;
  return (
    <CopyInput block="copy-field" label={label} value={value}>
      <Button
        variant="outline"
        className={cx('copy-field__button', copied && 'copy-field__button--copied')}
        aria-label={copied ? 'Link copiado' : 'Copiar link'}
        title={copied ? 'Link copiado' : 'Copiar link'}
        onClick={copy}
      >
        {copied ? <CheckIcon /> : <CopyIcon />}
      </Button>
    </CopyInput>
  );
}
