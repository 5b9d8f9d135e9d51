import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@ticketing/shared/router';
import { Button, buttonClass, TextField, toast } from '@ticketing/shared';
import { CourtesyFrame } from './CourtesyFrame.tsx';

/** /cortesia without a code: the visitor types the one they received. */
export function CodeEntry() {
  const navigate = useNavigate();
  const [code, setCode] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) {
      toast({ title: 'Código inválido', description: 'Por favor, insira um código válido', variant: 'destructive' });
      return;
    }
    navigate(`/cortesia?code=${encodeURIComponent(typed)}`);
  }

  return (
    <CourtesyFrame>
      <h1 className="courtesy__title">Resgate de Cortesia</h1>
      <form className="courtesy__code-form" onSubmit={submit} noValidate>
        <TextField
          label="Insira o código de cortesia recebido:"
          className="courtesy__code-field"
          value={code}
          onChange={(event) => setCode(event.target.value.toUpperCase())}
          placeholder="CDPI12345ABC"
          maxLength={100}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
        />
        <div className="courtesy__actions">
          <Button type="submit" size="lg" disabled={code === ''}>
            Continuar
          </Button>
          <Link to="/" className={buttonClass('outline', 'lg')}>
            Voltar ao início
          </Link>
        </div>
      </form>
    </CourtesyFrame>
  );
}
