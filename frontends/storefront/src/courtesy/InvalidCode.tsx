import { Link } from '@ticketing/shared/router';
import { buttonClass } from '@ticketing/shared';
import { CourtesyFrame } from './CourtesyFrame.tsx';
import { useFocusOnMount } from './useFocusOnMount.ts';

const FALLBACK = 'Este código de cortesia não é válido ou já foi utilizado.';

export function InvalidCode({ message }: { message?: string }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <CourtesyFrame>
      <div className="courtesy__result" role="alert">
        <h1 className="courtesy__title" ref={heading} tabIndex={-1}>
          Código inválido
        </h1>
        <p>{message || FALLBACK}</p>
      </div>
      <div className="courtesy__actions">
        <Link to="/" className={buttonClass('primary', 'lg')}>
          Voltar ao início
        </Link>
      </div>
    </CourtesyFrame>
  );
}
