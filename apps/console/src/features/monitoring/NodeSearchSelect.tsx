import { nodeRoutes } from '@rampart/contract';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { routeQuery } from '../../app/route-query';

/** A picked node: its id and the name shown for it. */
export interface NodeOption {
  value: number;
  label: string;
}

interface NodeSearchSelectProps {
  id?: string;
  value?: NodeOption[];
  onChange?: (value: NodeOption[]) => void;
  placeholder: string;
  /** One node (a monitor node to add) or several (the nodes a group probes). */
  multiple?: boolean;
}

/** How many matches the picker shows; typing narrows them on the server. */
const MATCHES = 50;

/**
 * Picks initialised nodes by name or address (a form control): the search runs on the server
 * (`client/nodes/initialized?value=`), and picked nodes keep their names while other searches run.
 */
export function NodeSearchSelect({ id, value = [], onChange, placeholder, multiple = false }: NodeSearchSelectProps) {
  const [text, setText] = useState('');
  const nodes = useQuery(
    routeQuery('client', nodeRoutes.listInitializedNodes, {
      query: { page: 1, pageSize: MATCHES, ...(text ? { value: text } : {}) },
    }),
  );
  const options = (nodes.data?.data ?? []).map((node) => ({
    value: node.id,
    label: `${node.name} (${node.ips[0] ?? ''})`,
  }));
  return (
    <Select<NodeOption[] | NodeOption>
      id={id}
      mode={multiple ? 'multiple' : undefined}
      labelInValue
      showSearch={{ filterOption: false, onSearch: setText }}
      placeholder={placeholder}
      aria-label={placeholder}
      loading={nodes.isFetching}
      value={multiple ? value : value[0]}
      options={options}
      onChange={(next) => onChange?.(next === undefined ? [] : Array.isArray(next) ? next : [next])}
      allowClear
    />
  );
}
