{{%AUTOESCAPE context="HTML"}}<h1>{{T_REPORTS_TITLE}}</h1>
{{#NOTICE}}<div class="notice ok" role="status">{{NOTICE_TEXT}}</div>{{/NOTICE}}
{{#EMPTY}}<p id="no-reports">{{T_REPORTS_EMPTY}}</p>{{/EMPTY}}
{{#TABLE}}<table class="list" id="reports">
<thead><tr><th scope="col">{{T_REPORTS_DATE}}</th><th scope="col">{{T_REPORTS_KIND}}</th><th scope="col">{{T_REPORTS_VERDICT}}</th><th scope="col">{{T_REPORTS_SUMMARY}}</th><th scope="col"><span class="visually-hidden">{{T_REPORTS_DELETE}}</span></th></tr></thead>
<tbody>{{#ROW}}<tr data-report-id="{{ID}}"><td><a href="/reports/{{ID}}">{{DATE}}</a></td><td>{{KIND}}</td><td><span class="badge verdict-{{VERDICT}}">{{RISK_TEXT}}</span> {{SCORE}}</td><td>{{SUMMARY}}</td>
<td><form method="post" action="/reports/{{ID}}/delete" class="inline"><input type="hidden" name="csrf" value="{{CSRF}}"><button type="submit" class="danger" aria-label="{{T_REPORTS_DELETE}}: {{DATE}}">{{T_REPORTS_DELETE}}</button></form></td></tr>
{{/ROW}}</tbody>
</table>{{/TABLE}}
