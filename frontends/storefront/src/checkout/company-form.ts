import { z } from 'zod';
import { companySchema, type OrderCompany } from '@ticketing/proto';

/** 'Comprar como empresa' and the company's fields, as typed. */
export interface CompanyForm {
  asCompany: boolean;
  cnpj: string;
  name: string;
  email: string;
  purchaseOrder: string;
}

export const noCompany: CompanyForm = { asCompany: false, cnpj: '', name: '', email: '', purchaseOrder: '' };

/**
 * The buyer of the order: unchecked, the buyer in their own name (no `company` sent); checked, the company as
 * `createOrderSchema` takes it, with the server's own messages at each field ('CNPJ inválido').
 */
export const companyFormSchema = z
  .object({
    asCompany: z.boolean(),
    cnpj: z.string(),
    name: z.string(),
    email: z.string(),
    purchaseOrder: z.string(),
  })
  .transform(({ asCompany, ...fields }, ctx): { company?: OrderCompany } => {
    if (!asCompany) return {};
    const company = companySchema.safeParse(fields);
    if (company.success) return { company: company.data };
    for (const issue of company.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return {};
  });
