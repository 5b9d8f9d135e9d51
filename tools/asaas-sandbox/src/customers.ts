import { isValidCpf } from '@ticketing/proto';
import { invalid, notFound } from './api-error.ts';
import type { Route, Store } from './store.ts';
import type { SandboxCustomer } from './types.ts';
import { brasiliaToday, digitsOnly, listOf, validCnpj } from './values.ts';

/** `/customers`: create, search (by CPF/CNPJ, external reference or e-mail) and read. */
export function customerRoutes(store: Store): Route[] {
  function create(body: Record<string, unknown>): SandboxCustomer {
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name) throw invalid('invalid_name', 'O nome do cliente deve ser informado.');
    const cpfCnpj = digitsOnly(body.cpfCnpj);
    if (!cpfCnpj) throw invalid('invalid_cpfCnpj', 'O CPF/CNPJ do cliente deve ser informado.');
    if (!(isValidCpf(cpfCnpj) || validCnpj(cpfCnpj)))
      throw invalid('invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
    const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
    const customer: SandboxCustomer = {
      object: 'customer',
      id: `cus_${String(++store.sequence).padStart(12, '0')}`,
      dateCreated: brasiliaToday(),
      name,
      email: text(body.email),
      phone: text(body.phone),
      mobilePhone: text(body.mobilePhone),
      cpfCnpj,
      personType: cpfCnpj.length === 11 ? 'FISICA' : 'JURIDICA',
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
    if (query.cpfCnpj) return store.customersBy.cpfCnpj.get(digitsOnly(query.cpfCnpj)) ?? [];
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
              (!query.cpfCnpj || customer.cpfCnpj === digitsOnly(query.cpfCnpj)) &&
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
