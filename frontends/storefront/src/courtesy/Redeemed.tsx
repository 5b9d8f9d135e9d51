import { Link } from '@ticketing/shared/router';
import { buttonClass } from '@ticketing/shared';
import { CheckIcon } from '../ui/icons.tsx';
import { CourtesyFrame } from './CourtesyFrame.tsx';
import { useFocusOnMount } from './useFocusOnMount.ts';

export function Redeemed() {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <CourtesyFrame>
      <div className="courtesy__result courtesy__result--success">
        <span className="courtesy__check">
          <CheckIcon />
        </span>
        <h1 className="courtesy__title" ref={heading} tabIndex={-1}>
          Cortesia Resgatada!
        </h1>
        <p>Seu ingresso foi enviado para o e-mail cadastrado.</p>
        <p>Você pode acessar seus ingressos na página de perfil.</p>
      </div>
      <div className="courtesy__actions">
        <Link to="/profile" className={buttonClass('primary', 'lg')}>
          Ver Meus Ingressos
        </Link>
        <Link to="/" className={buttonClass('outline', 'lg')}>
          Voltar ao início
        </Link>
      </div>
    </CourtesyFrame>
  );
}
