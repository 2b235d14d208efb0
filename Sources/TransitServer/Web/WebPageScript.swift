extension WebPage {
    /// The page's script: every answer comes from `/v1/BUNDLE/COMMAND`, the JSON
    /// `transit-query COMMAND --json` prints; text goes into the page as text (never as HTML).
    static let script = """
        'use strict';
        const $ = id => document.getElementById(id);
        let bundle = null, boardTimer = null, searchSeq = 0;

        function el(tag, text, cls) {
          const node = document.createElement(tag);
          if (text !== undefined) node.textContent = text;
          if (cls) node.className = cls;
          return node;
        }

        async function api(command, params) {
          const query = new URLSearchParams();
          for (const [k, v] of Object.entries(params)) if (v !== '' && v !== undefined && v !== null) query.append(k, v);
          const answer = await fetch(`/v1/${encodeURIComponent(bundle)}/${command}?${query}`);
          const body = await answer.json();
          if (!answer.ok) throw new Error(body.error ? body.error.message : answer.statusText);
          return {body};
        }

        function clock(iso) { return iso ? iso.slice(11, 16) : ''; }

        async function searchStops() {
          const text = $('stop-search').value.trim();
          const seq = ++searchSeq;
          const list = $('stop-results');
          if (text.length < 3) { list.replaceChildren(); return; }
          try {
            const {body} = await api('stops', {search: text, limit: 10});
            if (seq !== searchSeq) return;
            list.replaceChildren(...body.map(stop => {
              const item = el('li'), button = el('button', `${stop.stop_name} (${stop.stop_id})`);
              button.type = 'button';
              button.dataset.stop = stop.stop_id;
              button.addEventListener('click', () => showBoard(stop));
              item.append(button);
              return item;
            }));
            if (body.length === 0) list.replaceChildren(el('li', 'No stop found.', 'note'));
          } catch (error) { list.replaceChildren(el('li', error.message, 'error')); }
        }

        async function showBoard(stop) {
          clearInterval(boardTimer);
          $('board').hidden = false;
          $('board-title').textContent = `Departures from ${stop.stop_name}`;
          $('board').dataset.stop = stop.stop_id;
          const refresh = async () => {
            try {
              const {body} = await api('departures', {stop: stop.stop_id, limit: 15});
              const live = !$('live-badge').hidden;
              $('board-note').textContent = (live ? 'Live times. ' : 'Timetable. ') + 'Refreshed every 30 s.';
              $('board-rows').replaceChildren(...body.map(d => {
                const row = el('tr');
                row.dataset.trip = d.trip_id;
                const line = el('span', d.route_short_name || d.route_long_name || d.route_id, 'line');
                if (/^[0-9A-Fa-f]{6}$/.test(d.route_color || '')) line.style.background = '#' + d.route_color;
                if (/^[0-9A-Fa-f]{6}$/.test(d.route_text_color || '')) line.style.color = '#' + d.route_text_color;
                const cells = [clock(d.departure_time), '', d.headsign || '', d.platform_code || '',
                               d.delay === undefined ? '' : `${Math.round(d.delay / 60)} min`];
                cells.forEach((text, i) => { const cell = el('td', text); if (i === 1) cell.append(line); row.append(cell); });
                return row;
              }));
              if (body.length === 0) $('board-rows').replaceChildren(el('tr', 'No departure in the next hour.', 'note'));
            } catch (error) { $('board-note').textContent = error.message; }
          };
          await refresh();
          boardTimer = setInterval(refresh, 30000);
        }

        async function plan(event) {
          event.preventDefault();
          $('plan-error').textContent = '';
          $('journeys').replaceChildren();
          const map = $('journey-map');
          map.replaceChildren();
          map.hidden = true;
          try {
            const {body} = await api('plan', {from: $('plan-from').value.trim(), to: $('plan-to').value.trim(),
                                               at: $('plan-at').value.trim(), 'arrive-by': $('plan-arrive-by').checked ? 'true' : ''});
            if (body.journeys.length === 0) { $('journeys').replaceChildren(el('li', 'No journey found.', 'note')); return; }
            const lines = [];
            for (const journey of body.journeys) {
              const item = el('li', `${clock(journey.departure)} → ${clock(journey.arrival)}, ${journey.rides} ride(s)`);
              item.className = 'journey';
              const legs = el('ul');
              for (const leg of journey.legs) {
                const text = leg.kind === 'ride'
                  ? `${clock(leg.departure)} ${leg.boarding.route_short_name || leg.route_id} to ${leg.headsign || leg.to_stop}: ${leg.boarding.stop_name} → ${leg.alighting.stop_name}, ${clock(leg.arrival)}`
                  : `${leg.kind} ${leg.from_stop || ''} → ${leg.to_stop || ''}`;
                const entry = el('li', text, 'leg ' + leg.kind);
                entry.dataset.kind = leg.kind;
                legs.append(entry);
                if (leg.kind === 'ride' && journey === body.journeys[0]) lines.push(leg);
              }
              item.append(legs);
              if (journey.fare) item.append(el('p', `Fare: ${journey.fare.amount} ${journey.fare.currency}`, 'fare'));
              $('journeys').append(item);
            }
            await drawRides(lines);
          } catch (error) { $('plan-error').textContent = error.message; }
        }

        async function drawRides(legs) {
          const map = $('journey-map');
          const shapes = [];
          for (const leg of legs) {
            try {
              const {body} = await api('shape', {trip: leg.trip_id});
              if (body.points && body.points.length > 1) shapes.push({leg, points: body.points});
            } catch (error) { /* a trip without a shape is not drawn */ }
          }
          if (shapes.length === 0) return;
          const all = shapes.flatMap(s => s.points);
          const south = Math.min(...all.map(p => p[0])), north = Math.max(...all.map(p => p[0]));
          const west = Math.min(...all.map(p => p[1])), east = Math.max(...all.map(p => p[1]));
          const sx = Math.cos((south + north) / 2 * Math.PI / 180);
          const k = Math.min(560 / Math.max((east - west) * sx, 1e-6), 360 / Math.max(north - south, 1e-6));
          const xy = p => [20 + (p[1] - west) * sx * k, 20 + (north - p[0]) * k];
          const ns = 'http://www.w3.org/2000/svg';
          for (const {leg, points} of shapes) {
            const path = document.createElementNS(ns, 'path');
            path.setAttribute('class', 'ride');
            path.setAttribute('d', 'M' + points.map(p => xy(p).map(v => v.toFixed(1)).join(' ')).join('L'));
            const color = /^[0-9A-Fa-f]{6}$/.test(leg.boarding.route_color || '') ? '#' + leg.boarding.route_color : '#0b5cad';
            path.setAttribute('stroke', color);
            path.dataset.trip = leg.trip_id;
            map.append(path);
          }
          for (const p of [shapes[0].points[0], shapes[shapes.length - 1].points.at(-1)]) {
            const dot = document.createElementNS(ns, 'circle');
            const [x, y] = xy(p);
            dot.setAttribute('cx', x.toFixed(1)); dot.setAttribute('cy', y.toFixed(1)); dot.setAttribute('r', '6');
            dot.setAttribute('class', 'end');
            map.append(dot);
          }
          map.hidden = false;
        }

        async function searchCities() {
          const text = $('city-search').value.trim();
          const list = $('city-results');
          if (text.length < 2) { list.replaceChildren(); return; }
          try {
            const {body} = await api('cities', {search: text, limit: 10});
            list.replaceChildren(...body.map(city => el('li', `${city.name}, ${city.country}` + (city.population ? ` (${city.population.toLocaleString('en')})` : ''))));
          } catch (error) { list.replaceChildren(el('li', error.message, 'error')); }
        }

        function debounce(f, ms) { let t; return () => { clearTimeout(t); t = setTimeout(f, ms); }; }

        async function start() {
          const answer = await fetch('/v1');
          const {bundles} = await answer.json();
          const select = $('bundle');
          select.replaceChildren(...bundles.map(b => { const o = el('option', b.label || b.name); o.value = b.name; o.dataset.live = b.live; return o; }));
          const choose = () => {
            bundle = select.value;
            $('live-badge').hidden = select.selectedOptions[0]?.dataset.live !== 'true';
          };
          select.addEventListener('change', choose);
          choose();
          $('stop-search').addEventListener('input', debounce(searchStops, 150));
          $('city-search').addEventListener('input', debounce(searchCities, 150));
          $('plan-form').addEventListener('submit', plan);
          document.body.dataset.ready = 'true';
        }

        start();

        """
}
