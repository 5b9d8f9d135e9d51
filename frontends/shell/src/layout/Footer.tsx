import { brand } from '@ticketing/proto/brand';

export function Footer() {
  return (
    <footer className="footer">
      <div className="footer__inner">
        <section>
          <p className="footer__brand">{brand.name}</p>
          <p>{brand.tagline}</p>
        </section>
        <section aria-labelledby="footer-contato">
          <h2 id="footer-contato" className="footer__heading">
            Contato
          </h2>
          <address>
            <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
            <br />
            <a href={`tel:+55${brand.supportPhone.replace(/\D/g, '')}`}>{brand.supportPhone}</a>
            <br />
            {brand.address}
          </address>
        </section>
        <section aria-labelledby="footer-redes">
          <h2 id="footer-redes" className="footer__heading">
            Redes sociais
          </h2>
          <ul className="footer__social">
            <li>
              <a href={brand.social.instagram} rel="noopener noreferrer" target="_blank">
                Instagram
              </a>
            </li>
            <li>
              <a href={brand.social.linkedin} rel="noopener noreferrer" target="_blank">
                LinkedIn
              </a>
            </li>
          </ul>
        </section>
      </div>
      <p className="footer__legal">
        © {new Date().getFullYear()} {brand.name}. Todos os direitos reservados.
      </p>
    </footer>
  );
}
