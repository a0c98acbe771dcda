export interface PartenaireDto {
  '@id': string;
  '@type': 'Partenaire';
  code: string;
  designation: string;
  email: string | null;
  phoneNumber: string | null;
  initial: string;
  color: string;
  projectsCount: number;
  signalementsCount: number;
}

export function partenaireDto(row: {
  code: string;
  designation: string;
  email: string | null;
  phoneNumber: string | null;
  initial: string;
  color: string;
  projectsCount: number;
  signalementsCount: number;
}): PartenaireDto {
  return {
    '@id': `/api/partenaires/${row.code}`,
    '@type': 'Partenaire',
    code: row.code,
    designation: row.designation,
    email: row.email,
    phoneNumber: row.phoneNumber,
    initial: row.initial,
    color: row.color,
    projectsCount: Number(row.projectsCount),
    signalementsCount: Number(row.signalementsCount),
  };
}
