{{%AUTOESCAPE context="HTML"}}<p><a href="/reports">{{T_REPORT_OPEN_ALL}}</a></p>
{{REPORT:none}}
<form method="post" action="/reports/{{ID}}/delete" class="inline"><input type="hidden" name="csrf" value="{{CSRF}}"><button type="submit" class="danger">{{T_REPORTS_DELETE}}</button></form>
