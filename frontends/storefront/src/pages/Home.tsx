import { brand } from '@ticketing/proto/brand';
import { Page } from '@ticketing/shared';
import { EventsAnswer } from '../events/EventsAnswer.tsx';
import { useEvents } from '../events/queries.ts';
import { About } from '../home/About.tsx';
import { Faq } from '../home/Faq.tsx';
import { Hero } from '../home/Hero.tsx';
import { HomeSkeleton } from '../home/HomeSkeleton.tsx';
import { NEXT_EVENTS, NextEvents } from '../home/NextEvents.tsx';
import '../home/home.css';

/** The earliest upcoming event as the hero, the next one beside it, then who we are and the FAQ. */
export default function Home() {
  const events = useEvents();
  return (
    <Page title="Início" heading={null} className="home">
      <header className="home-intro">
        <h1 className="home-intro__title">{brand.tagline}</h1>
        <p className="home-intro__lead">
          Capacitação prática com especialistas do setor, do chão de fábrica aos assuntos regulatórios.
        </p>
      </header>
      <EventsAnswer
        events={events}
        loading={events.isPending}
        skeleton={<HomeSkeleton />}
        empty="Nenhum evento disponível no momento."
      >
        {(list) => (
          <div className="home-events">
            <Hero event={list[0]!} />
            <NextEvents events={list.slice(1, 1 + NEXT_EVENTS)} />
          </div>
        )}
      </EventsAnswer>
      <About />
      <Faq />
    </Page>
  );
}
