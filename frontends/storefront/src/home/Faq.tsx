import { brand } from '@ticketing/proto/brand';
import { Accordion, AccordionItem } from '@ticketing/shared/primitives';

const QUESTIONS = [
  {
    id: 'workshop',
    question: 'O que é o workshop?',
    answer:
      'É um encontro presencial com aulas, estudos de caso e exercícios práticos sobre um tema da indústria ' +
      'farmacêutica, conduzido por especialistas. A página de cada evento traz a descrição, a data, o horário e o local.',
  },
  {
    id: 'ingresso',
    question: 'Como garantir meu ingresso?',
    answer:
      'Crie sua conta, confirme seu e-mail e clique em Comprar ingresso na página do evento. Você pode pagar com PIX, ' +
      'cartão de crédito ou boleto. Assim que o pagamento é confirmado, o ingresso com QR Code chega por e-mail e ' +
      'fica disponível na sua Área de acesso.',
  },
  {
    id: 'cortesia',
    question: 'Como resgatar minhas cortesias?',
    answer:
      'Abra o link de cortesia que você recebeu ou acesse Resgate de cortesia e digite o código. Depois de entrar na ' +
      'sua conta, preencha seus dados: o ingresso é enviado para o e-mail informado.',
  },
];

/** One answer open at a time. */
export function Faq() {
  return (
    <section className="faq" aria-labelledby="perguntas-frequentes">
      <div className="faq__intro">
        <h2 id="perguntas-frequentes">Perguntas frequentes</h2>
        <p>
          Não encontrou o que procurava? Escreva para <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>.
        </p>
      </div>
      <Accordion className="faq__list">
        {QUESTIONS.map(({ id, question, answer }) => (
          <AccordionItem key={id} title={question}>
            <p>{answer}</p>
          </AccordionItem>
        ))}
      </Accordion>
    </section>
  );
}
