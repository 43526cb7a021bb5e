"""Every word table of the parser, in one place.

The readers in this package look words up here and nowhere else: units, currency
words, the ledger categories with their synonyms, verbs, weekdays, day parts and
time words. Adding a synonym is a one-line change in this module.
"""

from __future__ import annotations

import datetime as dt

# --- numbers and units ---
CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5}
CN_DIGITS |= {"六": 6, "七": 7, "八": 8, "九": 9}
CN_UNITS = {"十": 10, "百": 100, "千": 1000}
CN_MYRIAD = {"万": 10_000}
ASCII_MULTIPLIERS = {"k": 1000, "w": 10_000}

# --- ledger ---
EXPENSE_CATEGORIES: tuple[str, ...] = (
    "餐饮",
    "交通",
    "购物",
    "居住",
    "通讯",
    "医疗",
    "娱乐",
    "教育",
    "人情",
)
EXPENSE_CATEGORIES += ("日用", "其他")
INCOME_CATEGORIES = ("工资", "奖金", "红包", "报销", "兼职", "退款", "理财", "其他")

_EXPENSE_WORDS = {
    "餐饮": "早餐 早饭 午餐 午饭 中饭 晚餐 晚饭 宵夜 夜宵 外卖 奶茶 咖啡 饭 吃饭 聚餐 火锅 "
    "烧烤 零食 水果 早点 面包 快餐 食堂 饮料 小吃 甜品 蛋糕 麦当劳 肯德基 星巴克 瑞幸 "
    "喜茶 买菜 菜钱 午饭钱 饭钱 餐费 请客吃饭 盒饭 便当 包子 煎饼 面条 拉面 米线 酒 "
    "吃 面 瓶水 矿泉水 买水 早午饭 下午茶 牛奶 粥 饺子 馄饨 外卖费",
    "交通": "地铁 公交 打车 滴滴 出租车 加油 油费 停车 停车费 高铁 火车 机票 飞机 "
    "车费 路费 过路费 高速费 共享单车 单车 车票 船票 充电 洗车",
    "购物": "衣服 鞋 鞋子 裤子 包包 网购 淘宝 京东 拼多多 化妆品 护肤品 数码 手机壳 "
    "耳机 电脑 书包 礼物 手表 眼镜 购物 超市购物 日用百货",
    "居住": "房租 租金 电费 水费 燃气费 煤气费 物业费 物业 暖气费 房贷 水电 水电费 交房租",
    "通讯": "话费 手机费 流量 充话费 电话费 月租 宽带 网费 宽带费",
    "医疗": "药 买药 看病 挂号 医院 体检 牙医 看牙 门诊 药费 医药费 保健品 维生素 吃药 "
    "感冒药 看医生",
    "娱乐": "电影 看电影 游戏 唱歌 KTV ktv 演唱会 门票 旅游 健身 健身房 会员 视频会员 "
    "游泳 球票 剧本杀 桌游 按摩",
    "教育": "学费 书 买书 课程 网课 培训 考试 报名费 教材 辅导 文具",
    "人情": "份子钱 随份子 份子 随礼 礼金 请客 送礼 礼物钱 孝敬 发红包 包红包 给红包 "
    "发了红包 发了个红包 包了红包",
    "日用": "日用品 纸巾 洗发水 牙膏 超市 洗衣液 理发 剪头发 快递 快递费 水电煤 垃圾袋 家居 日用",
}
EXPENSE_SYNONYMS: dict[str, str] = {
    word: category for category, said in _EXPENSE_WORDS.items() for word in said.split()
}
EXPENSE_SYNONYMS |= {category: category for category in EXPENSE_CATEGORIES}

INCOME_SYNONYMS: dict[str, str] = {
    "工资": "工资", "薪水": "工资", "发工资": "工资", "薪资": "工资", "月薪": "工资",
    "奖金": "奖金", "年终奖": "奖金", "绩效": "奖金", "提成": "奖金",
    "红包": "红包", "收红包": "红包", "抢红包": "红包", "压岁钱": "红包",
    "报销": "报销", "报销款": "报销",
    "兼职": "兼职", "外快": "兼职", "稿费": "兼职", "副业": "兼职",
    "退款": "退款", "退货": "退款", "退钱": "退款",
    "理财": "理财", "利息": "理财", "分红": "理财", "收益": "理财", "基金": "理财",
}  # fmt: skip
"""Income words: with one of these (and no spending verb) an amount is income."""

INCOME_VERBS = ("收到", "收入", "到账", "进账", "入账", "赚了", "挣了", "收了", "领了", "发了")
NOT_MONEY_UNITS = frozenset(
    [
        "磅",
        "lb",
        "lbs",
        "米",
        "公里",
        "km",
        "千米",
        "cm",
        "厘米",
        "度",
        "步",
        "次",
        "分",
        "秒",
        "页",
        "层",
        "楼",
        "岁",
        "个",
        "遍",
        "圈",
        "下",
        "毫升",
        "ml",
        "卡",
        "大卡",
    ]
)
"""A number with one of these after it measures something else: never money."""
MEASURE_WORDS = (
    "个", "次", "小时", "分钟", "秒", "天", "年", "月", "周", "岁", "步", "公里", "米", "层",
    "楼", "页", "遍", "杯", "瓶", "碗", "斤", "克", "度", "分", "人", "口",
)  # fmt: skip
"""Words right after a number that make it a count or a measure (`2个小时`), not money."""

# --- verbs and leads ---
RECORD_LEADS: tuple[str, ...] = (
    "帮我记一下",
    "帮我记一笔",
    "帮我记个",
    "帮我记",
    "记一下",
    "记一笔",
    "记个",
)
RECORD_LEADS += ("记下", "请记", "帮忙记", "记录一下", "记录")
TASK_LEADS: tuple[str, ...] = ("记到待办", "加到待办", "放到待办", "放进待办", "记个任务")
TASK_LEADS += (
    "加个待办",
    "加一个待办",
    "添加待办",
    "加待办",
    "新建待办",
    "记个待办",
    "待办事项",
)
TASK_LEADS += ("加个任务", "添加任务", "加任务", "新任务", "待办", "任务")
EVENT_LEADS = ("记到日程", "加到日程", "加个日程", "添加日程", "加日程", "安排", "日程")
REMIND_WORDS = ("提醒我", "叫我", "提醒一下我", "记得提醒我", "到时候提醒我", "通知我")
DONE_WORDS: tuple[str, ...] = (
    "搞定",
    "做完",
    "完成",
    "弄完",
    "办完",
    "办好",
    "做好",
    "弄好",
    "结束",
    "完事",
)
DONE_WORDS += ("交了", "已完成", "已经完成", "做了")

# --- views and undo ---
UNDO_PHRASES = (
    "撤回刚才那个", "撤回刚才那条", "撤回上一条", "撤销上一条", "撤销刚才", "撤回刚才",
    "刚才记错", "刚才那条不要", "刚才那个不要", "上一条不要", "上一条删掉", "上一条记错",
    "删掉刚才那条", "删掉上一条", "删掉刚才那个", "记错了", "记错", "刚才的不算",
    "撤销一下", "撤回一下", "刚刚记错", "刚刚那条不要", "不对撤回", "撤销刚刚",
)  # fmt: skip

# --- days and times ---
WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
WEEKDAYS |= {str(number): number - 1 for number in range(1, 8)}
CRON_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
RELATIVE_DAYS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3}
RELATIVE_DAYS |= {"昨天": -1, "前天": -2}
AFTERNOON = frozenset({"下午", "傍晚", "晚上", "今晚", "明晚"})
MORNING = frozenset({"凌晨", "早上", "早晨", "上午", "明早", "今早", "清晨"})
PERIOD_TIMES = {
    "早上": dt.time(8), "早晨": dt.time(8), "上午": dt.time(9), "中午": dt.time(12),
    "下午": dt.time(15), "傍晚": dt.time(18), "晚上": dt.time(20),
}  # fmt: skip
"""What a period word alone means (`每天早上 跑步`); 凌晨 alone is not a time."""
MINUTE_WORDS = {"半": 30, "一刻": 15, "三刻": 45}
DURATION_SECONDS = {"分钟": 60, "分": 60, "min": 60, "小时": 3600, "钟头": 3600, "h": 3600}
DURATION_SECONDS |= {"天": 86400}

# --- switches and settings ---
SWITCH_SYNONYMS = {"打开": "开启", "关掉": "关闭", "停掉": "关闭", "停止": "关闭", "启用": "开启"}
SWITCH_SYNONYMS |= {"关了": "关闭", "关": "关闭", "开": "开启"}
QUIET_WORDS = ("免打扰", "勿扰", "别打扰我", "不要打扰我", "别打扰", "别吵我", "不要吵我")
END_WORDS = ("关掉", "关闭", "结束", "取消", "解除", "停止", "关了")
HEDGES = (
    "听说", "打算", "预算", "以前", "小时候", "涨", "降价", "太贵", "才", "如果", "要是",
    "想", "计划", "准备", "可能", "大概", "应该", "据说", "别人", "他的", "她的", "他们",
    "她们", "他花", "她花", "他买", "她买", "的工资",
    "能买", "好多", "居然", "竟然", "比", "只要", "原价", "便宜", "多少钱", "一共要",
    "亏", "赔", "损失", "跌", "借",
)  # fmt: skip
"""Words that make an amount a story, not a fact to record: asked, never recorded."""
