/** An answer of Asaas's error shape: `{ errors: [{ code, description }] }` with its HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, description: string) {
    super(description);
    this.status = status;
    this.code = code;
  }
}

export const invalid = (code: string, description: string) => new ApiError(400, code, description);
export const notFound = () => new ApiError(404, 'not_found', 'O recurso solicitado não foi encontrado.');

export const errorBody = (code: string, description: string) => ({ errors: [{ code, description }] });
