import { isValidCnpj, isValidCpf } from '@ticketing/proto';
import { invalid, notFound } from './api-error.ts';
import { nextId, type Route, type Store } from './store.ts';
import type { SandboxCustomer } from './types.ts';
import { brasiliaToday, listOf, taxIdCharacters } from './values.ts';

/** A person by CPF (11 digits) or a company by CNPJ (12 digits or letters, then 2 digits); null when neither. */
function personType(cpfCnpj: string): SandboxCustomer['personType'] | null {
  if (/^\d{11}$/.test(cpfCnpj)) return isValidCpf(cpfCnpj) ? 'FISICA' : null;
  if (/^[0-9A-Z]{12}\d{2}$/.test(cpfCnpj)) return isValidCnpj(cpfCnpj) ? 'JURIDICA' : null;
  return null;
}

/** `/customers`: create, search (by CPF/CNPJ, external reference or e-mail) and read. */
export function customerRoutes(store: Store): Route[] {
  function create(body: Record<string, unknown>): SandboxCustomer {
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name) throw invalid('invalid_name', 'O nome do cliente deve ser informado.');
    const cpfCnpj = taxIdCharacters(body.cpfCnpj);
    if (!cpfCnpj) throw invalid('invalid_cpfCnpj', 'O CPF/CNPJ do cliente deve ser informado.');
    const person = personType(cpfCnpj);
    if (!person) throw invalid('invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    const customer: SandboxCustomer = {
      object: 'customer',
      id: nextId(store, 'cus'),
      dateCreated: brasiliaToday(),
      name,
      email: text(body.email),
      phone: text(body.phone),
      mobilePhone: text(body.mobilePhone),
      cpfCnpj,
      personType: person,
      externalReference: text(body.externalReference),
      notificationDisabled: body.notificationDisabled === true,
      deleted: false,
    };
    store.customers.set(customer.id, customer);
    for (const [index, value] of [
      [store.customersBy.cpfCnpj, customer.cpfCnpj],
      [store.customersBy.externalReference, customer.externalReference],
    ] as const) {
      if (value !== null) index.set(value, [...(index.get(value) ?? []), customer]);
    }
    return customer;
  }

  /** The customers a search may find: those of its CPF/CNPJ or external reference when it names one, else all. */
  function candidates(query: Record<string, string>): SandboxCustomer[] {
    if (query.cpfCnpj) return store.customersBy.cpfCnpj.get(taxIdCharacters(query.cpfCnpj)) ?? [];
    if (query.externalReference) return store.customersBy.externalReference.get(query.externalReference) ?? [];
    return [...store.customers.values()];
  }

  return [
    ['POST', /^\/customers$/, (_, __, body) => create(body)],
    [
      'GET',
      /^\/customers$/,
      (_, query) =>
        listOf(
          candidates(query).filter(
            (customer) =>
              !customer.deleted &&
              (!query.cpfCnpj || customer.cpfCnpj === taxIdCharacters(query.cpfCnpj)) &&
              (!query.externalReference || customer.externalReference === query.externalReference) &&
              (!query.email || customer.email === query.email),
          ),
          query,
        ),
    ],
    [
      'GET',
      /^\/customers\/([^/]+)$/,
      ([id]) => {
        const customer = store.customers.get(id!);
        if (!customer) throw notFound();
        return customer;
      },
    ],
  ];
}
