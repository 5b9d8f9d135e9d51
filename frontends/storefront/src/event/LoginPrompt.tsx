import { Link } from '@ticketing/shared/router';
import { buttonClass } from '@ticketing/shared';
import './login-prompt.css';

/** The prompt 'Comprar ingresso' opens for a visitor (`popoverTarget`). */
export const LOGIN_PROMPT_ID = 'entrar-para-comprar';

/**
 * Buying needs an account. The browser itself shows this prompt (a popover), so it answers a visitor's tap even
 * before the page's code has arrived.
 */
export function LoginPrompt() {
  return (
    <div
      id={LOGIN_PROMPT_ID}
      popover="auto"
      role="dialog"
      aria-labelledby="entrar-para-comprar-titulo"
      className="login-prompt"
    >
      <h2 id="entrar-para-comprar-titulo" className="login-prompt__title">
        Login necessário
      </h2>
      <p>Faça login ou cadastre-se para comprar ingressos</p>
      <div className="login-prompt__actions">
        <Link to="/login" className={buttonClass('primary')}>
          Entrar
        </Link>
        <Link to="/register" className={buttonClass('outline')}>
          Criar conta
        </Link>
      </div>
    </div>
  );
}
