import { Button, CopyInput, copyText, toast } from '@ticketing/shared';

interface CopyCodeProps {
  label: string;
  code: string;
  /** The button's words, e.g. "Copiar código". */
  action: string;
  /** The toast's words once copied, e.g. "Código PIX copiado para a área de transferência." */
  copied: string;
}

/** A code to paste in a bank's app (PIX copia e cola, a boleto's line): read-only, selected on focus, one-click copy. */
export function CopyCode({ label, code, action, copied }: CopyCodeProps) {
  async function copy() {
    if (await copyText(code)) {
      toast({ title: 'Copiado!', description: copied });
    } else {
      toast({
        title: 'Erro ao copiar',
        description: 'Não foi possível copiar. Selecione o código e copie manualmente.',
        variant: 'destructive',
      });
    }
  }
  return (
    <CopyInput block="copy-code" label={label} value={code}>
      <Button variant="outline" size="sm" onClick={copy}>
        {action}
      </Button>
    </CopyInput>
  );
}
