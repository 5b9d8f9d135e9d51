import { brand } from '@ticketing/proto/brand';

const HIGHLIGHTS = [
  {
    title: 'Conteúdo técnico atualizado',
    text: 'Programas alinhados às resoluções da Anvisa e às boas práticas internacionais.',
  },
  {
    title: 'Especialistas do setor',
    text: 'Instrutores que vivem a rotina de qualidade, produção, farmacovigilância e assuntos regulatórios.',
  },
  {
    title: 'Troca entre profissionais',
    text: 'Turmas pensadas para discutir casos reais com colegas de outras empresas e hospitais.',
  },
];

export function About() {
  return (
    <section className="about" aria-labelledby="sobre">
      <div className="about__intro">
        <h2 id="sobre">Sobre a {brand.name}</h2>
        <p>
          A {brand.name} promove workshops, simpósios e cursos para farmacêuticos e profissionais da indústria
          farmacêutica. Nossos encontros unem a regulamentação mais recente à prática do dia a dia, com estudos de caso
          e exercícios que você leva de volta para a sua equipe.
        </p>
      </div>
      <ul className="about__highlights">
        {HIGHLIGHTS.map(({ title, text }) => (
          <li key={title}>
            <h3>{title}</h3>
            <p>{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
