import { ShieldAlertIcon } from '#web/components/icons';
import { Badge } from '#web/components/ui/badge';
import { MailIcon, PencilIcon } from '#web/components/ui/more-icons';
import { Switch } from '#web/components/ui/switch';
import { formatDateTime, initials } from '#web/lib/format';
import { roleBadge } from '#web/lib/role';
import { USERS_TEXT, type UserRow } from './users-text';

export interface UsersTableProps {
  users: UserRow[];
  onToggle: (user: UserRow) => void;
  onEdit: (user: UserRow) => void;
  onReset: (user: UserRow) => void;
  onResetTwoFactor: (user: UserRow) => void;
}

/** Columns of §2 Users: Utilisateur, Statut, Dernière connexion, Rôle, Actions. */
export function UsersTable({ users, onToggle, onEdit, onReset, onResetTwoFactor }: UsersTableProps) {
  return (
    <div className="md:overflow-x-auto">
      <table className="table table-stack" data-testid="users-table">
        <thead>
          <tr>
            <th>Utilisateur</th>
            <th>Statut</th>
            <th>Dernière connexion</th>
            <th>Rôle</th>
            <th className="text-right">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserTableRow
              key={user.code}
              user={user}
              onToggle={onToggle}
              onEdit={onEdit}
              onReset={onReset}
              onResetTwoFactor={onResetTwoFactor}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function UserTableRow({
  user,
  onToggle,
  onEdit,
  onReset,
  onResetTwoFactor,
}: { user: UserRow } & Omit<UsersTableProps, 'users'>) {
  const badge = roleBadge(user.utilisateurRole.code);
  return (
    <tr data-testid="user-row" data-email={user.email} className="hover:bg-base-200/50">
      <td>
        <div className="flex items-center gap-3">
          <div className="avatar avatar-placeholder" aria-hidden="true">
            <div className="w-9 rounded-full bg-primary/10 text-primary">
              <span className="text-sm font-semibold">{initials(user.nomPrenom)}</span>
            </div>
          </div>
          <div className="min-w-0">
            <div className="font-medium" data-testid="user-row-name">
              {user.nomPrenom}
            </div>
            <div className="truncate text-sm text-base-content/70">{user.email}</div>
          </div>
        </div>
      </td>
      <td data-testid="user-row-status">
        {user.isCurrentUser ? (
          <span className="text-base-content/70">-</span>
        ) : (
          <Switch
            checked={user.isEnabled}
            onChange={() => onToggle(user)}
            label={user.isEnabled ? USERS_TEXT.active : USERS_TEXT.disabled}
            data-testid="user-status-switch"
          />
        )}
      </td>
      <td
        className="whitespace-nowrap"
        data-testid="user-row-last-connection"
        data-label="Dernière connexion"
      >
        {user.lastConnectionAt ? (
          formatDateTime(user.lastConnectionAt)
        ) : (
          <span className="text-base-content/70">{USERS_TEXT.neverConnected}</span>
        )}
      </td>
      <td>
        <Badge tone={badge.tone} size="sm" data-testid="user-row-role">
          {user.utilisateurRole.designation}
        </Badge>
      </td>
      <td>
        <div className="flex justify-end gap-1">
          <div className="tooltip" data-tip={USERS_TEXT.editAction}>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={`${USERS_TEXT.editAction} ${user.nomPrenom}`}
              onClick={() => onEdit(user)}
            >
              <PencilIcon />
            </button>
          </div>
          <div
            className="tooltip tooltip-left"
            data-tip={user.isEnabled ? USERS_TEXT.resetAction : USERS_TEXT.resetUnavailable}
          >
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={`${USERS_TEXT.resetAction} à ${user.nomPrenom}`}
              disabled={!user.isEnabled}
              onClick={() => onReset(user)}
            >
              <MailIcon />
            </button>
          </div>
          <div className="tooltip tooltip-left" data-tip={USERS_TEXT.twoFactorResetAction}>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={`${USERS_TEXT.twoFactorResetAction} de ${user.nomPrenom}`}
              onClick={() => onResetTwoFactor(user)}
            >
              <ShieldAlertIcon size={16} />
            </button>
          </div>
        </div>
      </td>
    </tr>
  );
}
